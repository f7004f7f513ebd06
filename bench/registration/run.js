#!/usr/bin/env node
/*
 * bench/registration: POST -> Registered=True latency with the local gitops repo (p50 over N runs,
 * target <= 2 s) and one reconcile pass at 200 clusters (API requests and time).
 *   node bench/registration/run.js [--runs 10] [--clusters 200]
 * Needs Node 22 (the repo's .tools/node22) and the devenv binaries (built on first use).
 */
require('../runTs').runTsMain(require.resolve('./bench.ts'));
