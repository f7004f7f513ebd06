import type { RegisterClusterRequest } from '../api/request';
import {
  CLUSTER_KIND,
  INFRARED_API_VERSION,
  KUBECONFIG_SECRET_KEY,
  kubeconfigSecretName,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
} from '../clusters/names';
import type { ClusterResource, ClusterSpec } from '../clusters/types';

/**
 * The workload Cluster a valid registration request creates; the kubeconfig goes in its own Secret.
 *
 * @public
 */
export function clusterForRequest(
  request: RegisterClusterRequest,
): ClusterResource {
  const spec: ClusterSpec = { type: 'workload' };
  if (request.template) {
    // built with OpenTofu: the connection comes when the apply succeeds
    spec.template = { ...request.template };
    spec.provision = { ...request.provision };
  } else {
    spec.connection = request.inCluster
      ? { inCluster: true }
      : {
          kubeconfigSecretRef: {
            name: kubeconfigSecretName(request.name),
            key: KUBECONFIG_SECRET_KEY,
          },
        };
  }
  for (const key of ['flavor', 'provider', 'region', 'server'] as const) {
    if (request[key]) (spec as any)[key] = request[key];
  }
  return {
    apiVersion: INFRARED_API_VERSION,
    kind: CLUSTER_KIND,
    metadata: {
      name: request.name,
      labels: { [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED },
    },
    spec,
  };
}
