#!/usr/bin/env node
/*
 * bench/scale: 1,000 clusters registered at once through the REST API on a local control plane
 * with the local gitops repo; prints each figure of issue 17 beside its goal.
 *   node bench/scale/run.js [--clusters 1000] [--rest-seconds 60]
 * Needs Node 22 (the repo's .tools/node22) and the devenv binaries (built on first use).
 */
require('../runTs').runTsMain(require.resolve('./bench.ts'));
