#!/usr/bin/env node
/*
 * bench/ui at scale: the Clusters page's cold load in Chromium with 10,000 Clusters in a real
 * backend on the bench's own control plane (see scale.ts). Prints the figures; asserts nothing.
 *   node bench/ui/scale.js [--clusters 10000] [--runs 5] [--parallel 32] [--no-build] [--timeline]
 * Needs Node 22 (the repo's .tools/node22), the devenv binaries and Debian's chromium.
 */
require('../runTs').runTsMain(require.resolve('./scale.ts'));
