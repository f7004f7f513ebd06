#!/usr/bin/env node
/*
 * bench/argocd: a real Argo CD v3.6.1 (devenv's startArgoCd) beside a real Infrared backend on a
 * control plane of its own. (a) POST /v1/clusters -> Argo CD's GET /api/v1/clusters reports the
 * cluster Successful (p50 over --runs, goal <= 5 s); (b) a zone's merge (the release gate's
 * promotion published to the gitops repository) -> Argo CD reports the zone Application Synced and
 * Healthy (goal <= 30 s), by polling alone and with the refresh annotation a git webhook would set.
 *   node bench/argocd/run.js [--runs 5] [--zones 3] [--resync 10]
 * Needs Node 22 (the repo's .tools/node22), the devenv binaries and Argo CD (built on first use).
 */
require('../runTs').runTsMain(require.resolve('./bench.ts'));
