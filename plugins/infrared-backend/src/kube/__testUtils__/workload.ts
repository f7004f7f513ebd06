import {
  createServiceAccountKubeconfig,
  KubeClient,
  parseKubeconfig,
  renderKubeconfig,
  type ClusterInfo,
} from '@internal/devenv';

/** A ClusterRole that lets a probe count Nodes, nothing else. */
export const NODE_READER = 'infrared-test-node-reader';

export async function ensureNodeReader(cluster: ClusterInfo): Promise<void> {
  await KubeClient.fromKubeconfig(cluster.kubeconfig).createIfAbsent(
    '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: NODE_READER },
      rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
    },
  );
}

/** A bearer-token kubeconfig for a new ServiceAccount bound to `clusterRole`. */
export async function tokenKubeconfig(
  cluster: ClusterInfo,
  name: string,
  clusterRole = NODE_READER,
  namespace = 'default',
): Promise<string> {
  if (clusterRole === NODE_READER) await ensureNodeReader(cluster);
  return createServiceAccountKubeconfig(cluster, {
    namespace,
    name,
    clusterRole,
  });
}

/** The same kubeconfig with another server address (an unreachable one, say). */
export function withServer(kubeconfig: string, server: string): string {
  const access = parseKubeconfig(kubeconfig);
  return renderKubeconfig('edge', { ...access, server });
}

/** The same kubeconfig trusting another CA (so the server's certificate is not trusted). */
export function withCa(kubeconfig: string, caPem: string): string {
  const access = parseKubeconfig(kubeconfig);
  return renderKubeconfig('edge', { ...access, caData: caPem });
}

/** Deletes a ServiceAccount: its tokens stop working at once. */
export async function deleteServiceAccount(
  cluster: ClusterInfo,
  name: string,
  namespace = 'default',
): Promise<void> {
  await KubeClient.fromKubeconfig(cluster.kubeconfig).must(
    'DELETE',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${name}`,
    undefined,
    [404],
  );
}
