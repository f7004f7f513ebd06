#!/usr/bin/env node
/*
 * bench/gitops-publish: one registration's LocalGitPublisher.publish on top of N registered clusters.
 *   node bench/gitops-publish/run.js [--clusters 1000,10000] [--runs 10] [--batch 1]
 * Needs Node 22 (the repo's .tools/node22). Details: README.md.
 */
require('../runTs').runTsMain(require.resolve('./bench.ts'));
