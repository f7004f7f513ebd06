#!/usr/bin/env node
/* node bench/provisioning/run.js [--runs 5] [--clusters 20] [--state <devenv state.json>] */
require('../runTs').runTsMain(require('node:path').join(__dirname, 'bench.ts'));
