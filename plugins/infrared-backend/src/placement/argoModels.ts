import fs from 'node:fs';
import path from 'node:path';

/** Checks an object against Argo CD's Application schema: undefined when valid, else the problems. */
export type ApplicationValidator = (object: unknown) => string | undefined;

type ModuleLike = { createRequire(filename: string): NodeJS.Require };
type ModelClass = new (data: unknown) => { validate(): void };

/**
 * Node's own module loader. @kubernetes-models/argo-cd is ESM-only and exports only an `import`
 * condition: a CommonJS `require` of its name cannot resolve it, so it is required by file path
 * with Node's require(esm) (Node >= 22.12), through Node's real loader rather than a test runner's
 * module system.
 */
function nodeRequire(from: string = __filename): NodeJS.Require {
  const builtin = (process as any).getBuiltinModule as
    | ((id: string) => unknown)
    | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = (
    builtin ? builtin('node:module') : require('node:module')
  ) as ModuleLike;
  return mod.createRequire(from);
}

/** The installed package's folder (its package.json is not exported, so resolve by search paths). */
function packageDir(req: NodeJS.Require, name: string): string {
  for (const dir of req.resolve.paths(name) ?? []) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  throw new Error(`${name} is not installed`);
}

/** A validator from one model class of a package folder, required by file path. */
function modelValidator(
  req: NodeJS.Require,
  dir: string,
  file: string,
  name: string,
): ApplicationValidator {
  const Model = (req(path.join(dir, file)) as Record<string, ModelClass>)[name];
  return object => {
    try {
      new Model(object).validate();
      return undefined;
    } catch (e) {
      return String((e as Error).message ?? e);
    }
  };
}

let validator: ApplicationValidator | undefined;
let objectValidators: Record<string, ApplicationValidator> | undefined;

/**
 * Argo CD's Application schema from @kubernetes-models/argo-cd (generated from Argo CD's CRDs and
 * OpenAPI), loaded once.
 */
export function argoApplicationValidator(): ApplicationValidator {
  if (validator) return validator;
  const req = nodeRequire();
  const dir = packageDir(req, '@kubernetes-models/argo-cd');
  validator = modelValidator(
    req,
    dir,
    path.join('argoproj.io', 'v1alpha1', 'Application.js'),
    'Application',
  );
  return validator;
}

/** The kinds a zone's content is made of (zoneContent.ts). */
export const ZONE_CONTENT_KINDS = ['ConfigMap', 'Service'] as const;

/**
 * Kubernetes' own schema for the kinds of a zone's content, from `kubernetes-models` (the package
 * @kubernetes-models/argo-cd depends on for the core kinds, resolved from its folder), loaded once:
 * undefined when valid, else the problems. A kind not in ZONE_CONTENT_KINDS is refused.
 */
export function zoneObjectValidator(): ApplicationValidator {
  if (!objectValidators) {
    const argo = packageDir(nodeRequire(), '@kubernetes-models/argo-cd');
    const req = nodeRequire(path.join(argo, 'package.json'));
    const dir = packageDir(req, 'kubernetes-models');
    objectValidators = Object.fromEntries(
      ZONE_CONTENT_KINDS.map(kind => [
        kind,
        modelValidator(req, dir, path.join('v1', `${kind}.js`), kind),
      ]),
    );
  }
  const byKind = objectValidators;
  return object => {
    const kind = (object as { kind?: unknown } | undefined)?.kind;
    const check = typeof kind === 'string' ? byKind[kind] : undefined;
    return check
      ? check(object)
      : `kind ${String(kind)} is not one of ${ZONE_CONTENT_KINDS.join(', ')}`;
  };
}
