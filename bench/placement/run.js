#!/usr/bin/env node
/*
 * bench/placement: one release gate pass over 1,000 Products x 3 zones, each with a promoting
 * Release and nothing to promote, on a local API server: API requests by verb, writes, wall time.
 *   node bench/placement/run.js [--products 1000] [--state /tmp/cp.json]
 * Needs Node 22 (the repo's .tools/node22) and the devenv binaries (built on first use).
 */
require('../runTs').runTsMain(require.resolve('./bench.ts'));
