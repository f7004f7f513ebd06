import {
  installCrds,
  KubeClient,
  parseKubeconfig,
  renderKubeconfig,
  type ClusterInfo,
} from '@internal/devenv';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { applyTofuRbac } from '../../provisioning/__testUtils__/tofuRbac';

const DEPLOY = path.resolve(__dirname, '../../../../../deploy');

const PATHS: Record<string, (ns?: string) => string> = {
  Namespace: () => '/api/v1/namespaces',
  ServiceAccount: ns => `/api/v1/namespaces/${ns}/serviceaccounts`,
  ClusterRole: () => '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  ClusterRoleBinding: () =>
    '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  Role: ns => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
  RoleBinding: ns =>
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
};

/** Creates or updates every object of a manifest file, like `kubectl apply`. */
async function applyFile(admin: KubeClient, file: string): Promise<void> {
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map(d => d.toJSON())
    .filter(Boolean);
  for (const doc of docs) {
    const collection = PATHS[doc.kind]?.(doc.metadata.namespace);
    if (!collection) throw new Error(`cannot apply kind ${doc.kind}`);
    const created = await admin.must('POST', collection, doc, [409]);
    if (created.status === 409 && doc.kind !== 'Namespace') {
      const item = `${collection}/${doc.metadata.name}`;
      const current = await admin.must('GET', item);
      await admin.must('PUT', item, {
        ...doc,
        metadata: {
          ...doc.metadata,
          resourceVersion: current.body.metadata.resourceVersion,
        },
      });
    }
  }
}

/**
 * Makes the management cluster what `deploy/` describes: the CRDs, the namespaces, the backend's
 * ServiceAccount with only the shipped ClusterRole and Roles (not the registrar's). Returns a
 * kubeconfig with a token of that ServiceAccount: the identity the backend runs the tests as.
 */
export async function prepareManagementCluster(
  management: ClusterInfo,
): Promise<string> {
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  await installCrds(management, path.join(DEPLOY, 'crds'));
  for (const file of [
    '00-namespaces.yaml',
    '10-serviceaccount.yaml',
    '20-clusterrole.yaml',
    '30-roles.yaml',
  ]) {
    await applyFile(admin, path.join(DEPLOY, 'rbac', file));
  }
  // the backend's grants in the OpenTofu Jobs' namespace, and that namespace (50-tofu.yaml)
  await applyTofuRbac(management);
  const token = await admin.must(
    'POST',
    '/api/v1/namespaces/infrared/serviceaccounts/infrared-backend/token',
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 7200 },
    },
  );
  const access = parseKubeconfig(management.kubeconfig);
  return renderKubeconfig(
    'management',
    {
      server: access.server,
      caData: access.caData,
      token: token.body.status.token,
    },
    'infrared-backend',
  );
}
