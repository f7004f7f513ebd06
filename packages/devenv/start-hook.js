/*
 * A hook for scripts/start.d (npm start): brings up the local control plane with `devenv up` and
 * returns the env vars naming its kubeconfigs and, unless INFRARED_ARGOCD=off, its Argo CD (the API
 * URL, the panel account's token for the portal's proxy endpoint, and the git URL Argo CD clones the
 * gitops repository by). Skipped when INFRARED_DEVENV=off (use your own cluster).
 * Use from scripts/start.d/10-devenv.js as: module.exports = require('../../packages/devenv/start-hook');
 */
const fs = require('node:fs');
const path = require('node:path');

/** The env vars of the demo's Argo CD, read from devenv's state and token file in `dir`. */
function argoCdEnv(dir) {
  let state;
  let tokens;
  try {
    state = JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8'));
    tokens = JSON.parse(
      fs.readFileSync(path.join(dir, 'argocd-tokens.json'), 'utf8'),
    );
  } catch {
    return {};
  }
  const argo = state.argocd;
  const token = argo && tokens[argo.panelAccount];
  if (!argo || !token) return {};
  return {
    ARGOCD_URL: argo.url,
    ARGOCD_TOKEN: token,
    INFRARED_ARGOCD_REPO_URL: argo.gitUrl,
  };
}

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
    ...(env.INFRARED_ARGOCD === 'off' ? {} : argoCdEnv(dir)),
  };
}

module.exports = devenv;
module.exports.argoCdEnv = argoCdEnv;
