#!/usr/bin/env node
/*
 * infrared-registrar: runs the registrar CLI from its built output with plain node
 * (dist/registrar/infrared-registrar.cjs, see build-registrar.js). In a repository checkout the
 * output is (re)built first when it is missing or older than the sources; where it cannot be
 * built (no esbuild), the TypeScript sources run through Backstage's node transform instead.
 *   infrared-registrar --once --dry-run --debug
 */
const path = require('node:path');
const { OUTFILE, build, isStale } = require('./build-registrar');

function fromSources(reason) {
  process.stderr.write(
    `infrared-registrar: running from the TypeScript sources (${reason})\n`,
  );
  // Fails with "Cannot find module '@backstage/cli/...'" until `npm install` has run at the repo root.
  require(require.resolve('@backstage/cli/config/nodeTransform.cjs', {
    paths: [__dirname, process.cwd()],
  }));
  return require(path.join(__dirname, '..', 'src', 'registrar', 'cli.ts'));
}

let cli;
try {
  if (isStale()) build();
  cli = require(OUTFILE);
} catch (e) {
  cli = fromSources(`the built output is unavailable: ${e.message}`);
}
cli.run(process.argv.slice(2));
