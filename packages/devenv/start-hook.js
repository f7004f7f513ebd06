/*
 * A hook for scripts/start.d (npm start): brings up the local control plane with `devenv up` and
 * returns the env vars naming its kubeconfigs. Skipped when INFRARED_DEVENV=off (use your own cluster).
 * Use from scripts/start.d/10-devenv.js as: module.exports = require('../../packages/devenv/start-hook');
 */
const path = require('node:path');

module.exports = async function devenv({ repoRoot, env, run }) {
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
  };
};
