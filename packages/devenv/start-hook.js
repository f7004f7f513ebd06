/*
 * A hook for scripts/start.d (npm start): brings up the local control plane with `devenv up` and
 * returns the env vars naming its kubeconfigs, and the config file `devenv up` writes for the portal
 * (.data/devenv/app-config.devenv.yaml: Argo CD's proxy endpoint and git URL unless INFRARED_ARGOCD=off,
 * the OpenTofu runner's status file). devenv rewrites that file when Argo CD starts after the portal
 * (built in the background), and the running backend reads it again. Skipped when INFRARED_DEVENV=off
 * (use your own cluster).
 * Use from scripts/start.d/10-devenv.js as: module.exports = require('../../packages/devenv/start-hook');
 */
const fs = require('node:fs');
const path = require('node:path');

async function devenv({ repoRoot, env, run }) {
  if (env.INFRARED_DEVENV === 'off') return {};
  const status = run(process.execPath, [
    path.join(__dirname, 'bin', 'devenv.js'),
    'up',
  ]);
  if (status !== 0)
    throw new Error(
      'devenv up failed: see the output above (or set INFRARED_DEVENV=off)',
    );
  const dir = path.join(repoRoot, '.data', 'devenv');
  return {
    INFRARED_DEVENV_MANAGEMENT_KUBECONFIG: path.join(
      dir,
      'management.kubeconfig',
    ),
    INFRARED_DEVENV_EDGE_DEMO_KUBECONFIG: path.join(
      dir,
      'edge-demo.kubeconfig',
    ),
    configFiles: [path.join(dir, 'app-config.devenv.yaml')].filter(f =>
      fs.existsSync(f),
    ),
  };
}

module.exports = devenv;
