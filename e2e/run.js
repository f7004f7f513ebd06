#!/usr/bin/env node
/*
 * Browser tests of the Clusters page, against a running portal: frontend E2E_BASE_URL (default
 * http://localhost:3000), backend at :7007 with the local control plane (npm start). Starting the
 * portal is the caller's job (scripts/e2e.js does it for `npm test`).
 *
 *   node e2e/run.js
 * Environment:
 *   E2E_BASE_URL      the portal's frontend (default http://localhost:3000)
 *   E2E_KUBECONFIG    kubeconfig of the demo workload cluster (default .data/devenv/edge-demo.kubeconfig)
 *   E2E_CLUSTER_NAME  the name it is registered under (default edge-demo)
 *   E2E_TIMEOUT_MS    how long Connected and Registered may take (default 120000)
 *   CHROMIUM_PATH     the browser (default /usr/bin/chromium)
 *   E2E_RESULT_FILE   where to write { passed, failed, skipped, steps } as JSON
 *   E2E_ONLY          comma-separated names (clusters,placement): run only e2e/<name>.e2e.js
 * Screenshots of every step go to test-results/e2e/ (git-ignored).
 * Prints "N passed, N failed" and exits non-zero when a step failed.
 */
const fs = require('node:fs');
const path = require('node:path');
const { runAll } = require('./harness');

const repoRoot = path.resolve(__dirname, '..');

async function main() {
  const only = process.env.E2E_ONLY?.split(',').filter(Boolean);
  const files = fs
    .readdirSync(__dirname)
    .filter(f => f.endsWith('.e2e.js'))
    .filter(f => !only || only.includes(f.replace(/\.e2e\.js$/, '')))
    .sort()
    .map(f => path.join(__dirname, f));
  const steps = await runAll({
    files,
    chromiumPath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    baseUrl: (process.env.E2E_BASE_URL || 'http://localhost:3000').replace(
      /\/+$/,
      '',
    ),
    kubeconfigPath:
      process.env.E2E_KUBECONFIG ||
      path.join(repoRoot, '.data', 'devenv', 'edge-demo.kubeconfig'),
    clusterName: process.env.E2E_CLUSTER_NAME || 'edge-demo',
    registrationTimeoutMs: Number(process.env.E2E_TIMEOUT_MS || 120_000),
    screenshotDir: path.join(repoRoot, 'test-results', 'e2e'),
  });
  const count = status => steps.filter(s => s.status === status).length;
  const result = {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    steps,
  };
  if (process.env.E2E_RESULT_FILE) {
    fs.mkdirSync(path.dirname(process.env.E2E_RESULT_FILE), {
      recursive: true,
    });
    fs.writeFileSync(
      process.env.E2E_RESULT_FILE,
      JSON.stringify(result, null, 2),
    );
  }
  console.log(
    `${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`,
  );
  process.exitCode = result.failed || !result.passed ? 1 : 0;
}

main().catch(e => {
  console.error(e);
  if (process.env.E2E_RESULT_FILE) {
    fs.writeFileSync(
      process.env.E2E_RESULT_FILE,
      JSON.stringify({ passed: 0, failed: 1, error: String(e) }),
    );
  }
  process.exit(1);
});
