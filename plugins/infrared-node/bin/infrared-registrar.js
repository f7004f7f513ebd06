#!/usr/bin/env node
/*
 * infrared-registrar: runs the TypeScript CLI (src/registrar/cli.ts) through Backstage's node
 * transform (swc), so nothing is compiled first.
 *   infrared-registrar --once --dry-run --debug
 */
const path = require('node:path');

function registerTransform() {
  for (const id of [
    '@backstage/cli/config/nodeTransform.cjs',
    '@backstage/cli-node/config/nodeTransform.cjs',
  ]) {
    try {
      require(require.resolve(id, { paths: [__dirname, process.cwd()] }));
      return;
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND') throw e;
    }
  }
  process.stderr.write(
    'infrared-registrar: @backstage/cli is not installed; run `npm install` at the repo root first\n',
  );
  process.exit(1);
}

registerTransform();
require(path.join(__dirname, '..', 'src', 'registrar', 'cli.ts')).run(
  process.argv.slice(2),
);
