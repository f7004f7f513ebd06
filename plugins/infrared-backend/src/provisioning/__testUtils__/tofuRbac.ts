import { KubeClient, type ClusterInfo } from '@internal/devenv';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

const TOFU_RBAC = path.resolve(
  __dirname,
  '../../../../../deploy/rbac/50-tofu.yaml',
);

/** The OpenTofu Jobs' namespace deploy/rbac makes. */
export const TOFU_NAMESPACE = 'infrared-tofu';

const PATHS: Record<string, (ns: string) => string> = {
  Namespace: () => '/api/v1/namespaces',
  ServiceAccount: ns => `/api/v1/namespaces/${ns}/serviceaccounts`,
  Role: ns => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
  RoleBinding: ns =>
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
};

/**
 * Applies deploy/rbac/50-tofu.yaml (the OpenTofu Jobs' namespace, Pod Security `restricted`, and
 * the backend's Role there), like kubectl apply.
 */
export async function applyTofuRbac(management: ClusterInfo): Promise<void> {
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  const docs = YAML.parseAllDocuments(fs.readFileSync(TOFU_RBAC, 'utf8'))
    .map(d => d.toJSON())
    .filter(Boolean);
  for (const doc of docs) {
    const collection = PATHS[doc.kind](doc.metadata.namespace);
    const created = await admin.must('POST', collection, doc, [409]);
    if (created.status !== 409) continue;
    const item = `${collection}/${doc.metadata.name}`;
    if (doc.kind === 'Namespace') {
      await admin.must(
        'PATCH',
        item,
        { metadata: { labels: doc.metadata.labels } },
        [],
        'application/merge-patch+json',
      );
      continue;
    }
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
