import {
  createServiceAccountKubeconfig,
  KubeClient as AdminClient,
  type ClusterInfo,
} from '@internal/devenv';

/** What the module needs on the management cluster, and no more: read and watch Clusters and Secrets. */
export const MODULE_ROLE = 'infrared-kubernetes-module-test';

/**
 * A kubeconfig of the ServiceAccount infrared/kubernetes-module-test bound to MODULE_ROLE only: the
 * module's identity on the management cluster in the integration tests.
 */
export async function moduleKubeconfig(management: ClusterInfo) {
  await AdminClient.fromKubeconfig(management.kubeconfig).createIfAbsent(
    '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: MODULE_ROLE },
      rules: [
        {
          apiGroups: ['infrared.darkshift.io'],
          resources: ['clusters'],
          verbs: ['list', 'watch'],
        },
        { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch'] },
      ],
    },
  );
  return createServiceAccountKubeconfig(management, {
    namespace: 'infrared',
    name: 'kubernetes-module-test',
    clusterRole: MODULE_ROLE,
  });
}
