#!/usr/bin/env node
/*
 * bench/registrar: one registrar pass over 100 and 1,000 managed namespaces on a local API server:
 * the first pass (registers every child) and a steady pass (nothing to do), each with its API
 * requests, writes, wall time and the floor (the LIST calls alone).
 *   node bench/registrar/run.js [--sizes 100,1000] [--children 1000] [--unrelated 6000] [--latency 50] [--latency-modes before,after,backend] [--settle <s>] [--state /tmp/cp.json [--run <id>]] [--concurrency <writes in flight>]
 *   at 10,000: --sizes 10000 --children 0 --latency 50 --latency-modes after,backend --settle 60
 * Needs Node 22 (the repo's .tools/node22) and the devenv binaries (built on first use).
 */
require('../runTs').runTsMain(require.resolve('./bench.ts'));
