#!/usr/bin/env node
/* node bench/backend-bundle/run.js [--no-build] [--state <devenv state.json>] */
require('../runTs').runTsMain(require('node:path').join(__dirname, 'bench.ts'));
