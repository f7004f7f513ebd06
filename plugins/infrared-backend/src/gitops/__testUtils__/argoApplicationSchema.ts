import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

// @kubernetes-models/argo-cd is ESM-only with `import`-only exports, which Jest's CommonJS module system cannot
// resolve; a plain Node process loads it as published.
const SCRIPT = `
import { Application } from '@kubernetes-models/argo-cd/argoproj.io/v1alpha1/Application';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = JSON.parse(input).map(object => {
  try { new Application(object).validate(); return null; } catch (e) { return String(e.message); }
});
process.stdout.write(JSON.stringify(results));
`;

/**
 * Validates objects against Argo CD's Application schema (@kubernetes-models/argo-cd); one entry per object,
 * null when valid, else the validation message.
 */
export function validateArgoApplications(
  objects: unknown[],
): Promise<Array<string | null>> {
  return new Promise((done, fail) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '-e', SCRIPT],
      { cwd: resolve(__dirname, '../../..') },
      (error, stdout, stderr) =>
        error
          ? fail(new Error(`${error.message}\n${stderr}`))
          : done(JSON.parse(stdout)),
    );
    child.stdin?.end(JSON.stringify(objects));
  });
}
