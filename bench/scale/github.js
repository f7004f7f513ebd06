#!/usr/bin/env node
/*
 * bench/scale, GitHub part: the GitHub requests N registrations at once cost, against the fake
 * GitHub (no control plane needed).
 *   node bench/scale/github.js [--clusters 1000]
 */
require('../runTs').runTsMain(require.resolve('./github.ts'));
