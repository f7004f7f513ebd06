/** A built Cluster's connection, from its apply's kubeconfig output: auto-registration. */
import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  CLUSTER_NAME_LABEL,
  INFRARED_NAMESPACE,
  KUBECONFIG_SECRET_KEY,
  kubeconfigSecret,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  secretStrings,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import {
  isAlreadyExists,
  isConflict,
  type ManagementApi,
  type ProvisioningKubeApi,
} from '@infrared-clusters/infrared-kube';
import { controllerReferenceTo } from '../kube/ownerReference';

export interface RegisterOptions {
  api: ManagementApi;
  kube: ProvisioningKubeApi;
  logger: LoggerService;
}

/**
 * Auto-registration: the kubeconfig Secret `cluster-<name>-kubeconfig` (owned by the Cluster),
 * then spec.connection.kubeconfigSecretRef naming it, only if the Cluster is unchanged since the
 * LIST. A Secret of that name that another made is never overwritten.
 */
export async function registerBuiltCluster(
  { api, kube, logger }: RegisterOptions,
  cluster: ClusterResource,
  secretName: string,
  kubeconfig: string,
): Promise<boolean> {
  const name = cluster.metadata.name;
  const secret = kubeconfigSecret({
    clusterName: name,
    kubeconfig,
    ownerReferences: [controllerReferenceTo(cluster)],
  });
  try {
    await api.secrets.create(secret);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
    const existing = await api.secrets.get(INFRARED_NAMESPACE, secretName);
    const labels = existing?.metadata.labels ?? {};
    const owned =
      labels[MANAGED_BY_LABEL] === MANAGED_BY_INFRARED &&
      labels[CLUSTER_NAME_LABEL] === name &&
      (existing?.metadata.ownerReferences ?? []).every(
        r => r.uid === cluster.metadata.uid,
      );
    if (!existing || !owned) {
      logger.warn(
        `infrared: cluster ${name} was built, but Secret ${INFRARED_NAMESPACE}/${secretName} exists and is not its own: set spec.connection yourself`,
      );
      return false;
    }
    if (secretStrings(existing)[KUBECONFIG_SECRET_KEY] !== kubeconfig) {
      await api.secrets.replace({
        ...secret,
        metadata: {
          ...secret.metadata,
          resourceVersion: existing.metadata.resourceVersion,
        },
      });
    }
  }
  try {
    await kube.patchClusterSpec(
      name,
      {
        connection: {
          kubeconfigSecretRef: {
            name: secretName,
            key: KUBECONFIG_SECRET_KEY,
          },
        },
      },
      cluster.metadata.resourceVersion,
    );
  } catch (e) {
    if (isConflict(e)) return false;
    throw e;
  }
  logger.info(
    `infrared: cluster ${name} was built; its kubeconfig is in Secret ${INFRARED_NAMESPACE}/${secretName} and registration goes on`,
  );
  return true;
}
