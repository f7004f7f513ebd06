#!/usr/bin/env node
/*
 * bench/catalog: the catalog entity provider's full mutation at 1,000 Clusters (and a delta), into a
 * real catalog backend, reading a local API server.
 *   node bench/catalog/run.js [--clusters 1000] [--state /tmp/cp.json] [--postgres] [--kubeconfig-format yaml|json] [--unregistered]
 * Needs Node 22 (the repo's .tools/node22) and the devenv binaries (built on first use).
 */
require('../runTs').runTsMain(require.resolve('./bench.ts'));
