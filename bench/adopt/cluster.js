/*
 * The adopter's management cluster: an empty control plane of the test's own (packages/devenv), so
 * the guide's `helm upgrade --install` runs as on a new cluster and a second backend never
 * reconciles the shared control plane's Clusters. Argo CD's namespace exists first, as the guide
 * assumes. After the chart: a kubeconfig with a token of the chart's ServiceAccount
 * infrared/infrared-backend, which the backend runs as.
 */
const fs = require('node:fs');
const path = require('node:path');
const { registerTransform } = require('../runTs');

registerTransform();
const devenv = require('@internal/devenv');

/** Starts the throwaway management cluster; resolves { plane, cluster, helmBin }. */
async function startManagement(workDir) {
  const plane = await devenv.startControlPlane({
    clusters: ['management'],
    dataDir: path.join(workDir, 'control-plane'),
    ownerPid: process.pid,
  });
  const cluster = plane.cluster('management');
  await devenv.ensureNamespace(cluster, 'argocd');
  const helm = devenv.ensureHelm({ log: () => {} });
  return { plane, cluster, helmBin: helm.bin };
}

/** What the chart made that the backend needs: its CRDs served, its ServiceAccount. */
async function checkChart(cluster) {
  const admin = devenv.KubeClient.fromKubeconfig(cluster.kubeconfig);
  const crds = await admin.must(
    'GET',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  );
  const names = crds.body.items
    .map(c => c.metadata.name)
    .filter(n => n.endsWith('.infrared.darkshift.io'))
    .sort();
  await admin.must(
    'GET',
    '/api/v1/namespaces/infrared/serviceaccounts/infrared-backend',
  );
  return names;
}

/** A kubeconfig of infrared/infrared-backend (a TokenRequest token, 2 h), written to `file`. */
async function backendKubeconfig(cluster, file) {
  const admin = devenv.KubeClient.fromKubeconfig(cluster.kubeconfig);
  const token = await admin.must(
    'POST',
    '/api/v1/namespaces/infrared/serviceaccounts/infrared-backend/token',
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 7200 },
    },
  );
  const access = devenv.parseKubeconfig(cluster.kubeconfig);
  fs.writeFileSync(
    file,
    devenv.renderKubeconfig(
      'management',
      {
        server: access.server,
        caData: access.caData,
        token: token.body.status.token,
      },
      'infrared-backend',
    ),
    { mode: 0o600 },
  );
  return file;
}

/** The kubeconfig of a cluster of the devenv state file (the workload cluster to register). */
function stateKubeconfig(stateFile, name) {
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  const cluster = state.clusters.find(c => c.name === name);
  if (!cluster) throw new Error(`${stateFile} has no cluster named ${name}`);
  return fs.readFileSync(cluster.kubeconfigPath, 'utf8');
}

module.exports = {
  startManagement,
  checkChart,
  backendKubeconfig,
  stateKubeconfig,
};
