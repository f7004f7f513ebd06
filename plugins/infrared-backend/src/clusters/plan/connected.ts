import { ClusterConditionTypes } from '@infrared-clusters/plugin-infrared-common';
import type { ConditionInput } from '@infrared-clusters/plugin-infrared-node';
import type { ObservedCluster } from './types';

/** Connected, from the probe's answer or from why the connection can't be tried. */
export function connectedCondition(observed: ObservedCluster): ConditionInput {
  const { connection, probe, cluster } = observed;
  const base = {
    type: ClusterConditionTypes.Connected,
    observedGeneration: cluster.metadata.generation,
  };
  if (connection.kind === 'unusable') {
    return {
      ...base,
      status: 'False',
      reason: connection.reason,
      message: connection.message,
    };
  }
  if (!probe) {
    return {
      ...base,
      status: 'Unknown',
      reason: 'NotProbed',
      message: 'the API server has not been reached yet',
    };
  }
  if (!probe.ok) {
    return {
      ...base,
      status: 'False',
      reason: probe.reason,
      message: probe.message,
    };
  }
  const how =
    connection.kind === 'inCluster'
      ? "with the backend's own service account"
      : `at ${connection.argo.server} as Argo CD will connect`;
  return {
    ...base,
    status: 'True',
    reason: 'Connected',
    message: `reached Kubernetes ${probe.kubernetesVersion} ${how}: ${
      probe.nodes
    } node${probe.nodes === 1 ? '' : 's'}`,
  };
}
