#!/usr/bin/env node
/*
 * argocd-cluster-registrar: the registrar command of @infrared-clusters/infrared-registrar under
 * upstream's name (src/index.ts). The installed package runs its dist/index.cjs.js with plain node,
 * and that the registrar's own build (@infrared-clusters/infrared-registrar/cli, dist/cli.cjs.js);
 * in a checkout (src/ present) the TypeScript sources run through Backstage's node transform.
 *   argocd-cluster-registrar --once --dry-run --debug
 */
const fs = require('node:fs');
const path = require('node:path');

if (fs.existsSync(path.join(__dirname, '..', 'src'))) {
  // Fails with "Cannot find module '@backstage/cli/...'" until `npm install` has run at the repo root.
  require(require.resolve('@backstage/cli/config/nodeTransform.cjs', {
    paths: [__dirname, process.cwd()],
  }));
  require('../src/index.ts');
} else {
  require('..');
}
