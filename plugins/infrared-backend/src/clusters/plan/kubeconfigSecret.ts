import type { ObservedCluster, SecretAction } from './types';
import {
  dependentLabels,
  labelsInclude,
  ownerReferencesFor,
  sameOwners,
} from './ownership';

/**
 * The kubeconfig Secret gets the Cluster as owner (so the garbage collector removes it with the
 * Cluster) and our labels (so the executor's LIST finds it). A refused write is only logged: it
 * blocks nothing, the next pass tries again.
 */
export function planKubeconfigSecret(
  observed: ObservedCluster,
): SecretAction[] {
  const { cluster, kubeconfigSecret: secret } = observed;
  if (!secret) return [];
  const owners = ownerReferencesFor(secret.metadata.ownerReferences, cluster);
  const labels = dependentLabels(cluster.metadata.name);
  if (
    sameOwners(secret.metadata.ownerReferences, owners) &&
    labelsInclude(secret.metadata.labels, labels)
  ) {
    return [];
  }
  return [
    {
      type: 'adoptKubeconfigSecret',
      namespace: secret.metadata.namespace ?? '',
      name: secret.metadata.name,
      labels,
      ownerReferences: owners,
      resourceVersion: secret.metadata.resourceVersion,
    },
  ];
}
