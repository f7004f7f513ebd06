#!/usr/bin/env node
/*
 * bench/registration: POST -> Registered=True latency with the local gitops repo (p50 over N runs,
 * target <= 2 s) and one reconcile pass at 200 clusters (API requests and time).
 *   node bench/registration/run.js [--runs 10] [--clusters 200]
 * Needs Node 22 (the repo's .tools/node22) and the devenv binaries (built on first use).
 */
for (const id of [
  '@backstage/cli/config/nodeTransform.cjs',
  '@backstage/cli-node/config/nodeTransform.cjs',
]) {
  try {
    require(require.resolve(id, { paths: [__dirname, process.cwd()] }));
    break;
  } catch (e) {
    if (e.code !== 'MODULE_NOT_FOUND') throw e;
  }
}

require('./bench.ts')
  .main()
  .then(() => process.exit(0))
  .catch(error => {
    console.error(error);
    process.exit(1);
  });
