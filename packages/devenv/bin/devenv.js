#!/usr/bin/env node
/*
 * Runs the TypeScript CLI (src/cli.ts) through Backstage's node transform (swc), so nothing is compiled first.
 */
const path = require('node:path');

// Backstage's node transform (swc): the TypeScript sources run as they are. It fails with
// "Cannot find module '@backstage/cli/...'" until `npm install` has run at the repo root.
require(require.resolve('@backstage/cli/config/nodeTransform.cjs', {
  paths: [__dirname, process.cwd()],
}));
require(path.join(__dirname, '..', 'src', 'cli.ts')).run(process.argv.slice(2));
