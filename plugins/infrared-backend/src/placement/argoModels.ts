import fs from 'node:fs';
import path from 'node:path';

/** Checks an object against Argo CD's Application schema: undefined when valid, else the problems. */
export type ApplicationValidator = (object: unknown) => string | undefined;

type ModuleLike = { createRequire(filename: string): NodeJS.Require };

/**
 * Node's own module loader. @kubernetes-models/argo-cd is ESM-only and exports only an `import`
 * condition: a CommonJS `require` of its name cannot resolve it, so it is required by file path
 * with Node's require(esm) (Node >= 22.12), through Node's real loader rather than a test runner's
 * module system.
 */
function nodeRequire(): NodeJS.Require {
  const builtin = (process as any).getBuiltinModule as
    | ((id: string) => unknown)
    | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = (
    builtin ? builtin('node:module') : require('node:module')
  ) as ModuleLike;
  return mod.createRequire(__filename);
}

/** The installed package's folder (its package.json is not exported, so resolve by search paths). */
function packageDir(req: NodeJS.Require, name: string): string {
  for (const dir of req.resolve.paths(name) ?? []) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  throw new Error(`${name} is not installed`);
}

let validator: ApplicationValidator | undefined;

/**
 * Argo CD's Application schema from @kubernetes-models/argo-cd (generated from Argo CD's CRDs and
 * OpenAPI), loaded once.
 */
export function argoApplicationValidator(): ApplicationValidator {
  if (validator) return validator;
  const req = nodeRequire();
  const dir = packageDir(req, '@kubernetes-models/argo-cd');
  const { Application } = req(
    path.join(dir, 'argoproj.io', 'v1alpha1', 'Application.js'),
  ) as {
    Application: new (data: unknown) => { validate(): void };
  };
  validator = object => {
    try {
      new Application(object).validate();
      return undefined;
    } catch (e) {
      return String((e as Error).message ?? e);
    }
  };
  return validator;
}
