import { kubeconfigSecretName } from '@infrared-clusters/plugin-infrared-common';
import type { ConditionInput } from '@infrared-clusters/infrared-kube';
import type { ClusterRun, ReportedJob } from './planRun';
import type { ProvisioningAction } from './planTypes';

/**
 * Whether a finished Job registers the cluster from its output: an apply that succeeded, of a
 * Cluster without a connection, or of one whose connection its first apply wrote when this apply
 * follows a destroy (that server is gone; the new output is written over it, once: until status
 * records the apply). A connection set after the Job's generation is this apply's own
 * registration, whose status write was lost.
 */
export function wantsRegistration(
  run: ClusterRun,
  r: Pick<ReportedJob, 'phase' | 'action' | 'generation' | 'alreadyFinal'>,
): boolean {
  const { cluster, context } = run;
  const connection = cluster.spec.connection;
  const rebuilt =
    !r.alreadyFinal &&
    connection?.kubeconfigSecretRef?.name === kubeconfigSecretName(run.name) &&
    cluster.metadata.generation === r.generation;
  return (
    r.phase === 'Succeeded' &&
    r.action === 'apply' &&
    (!connection || rebuilt) &&
    !!context.kubeconfigOutput
  );
}

/** Auto-registration from an apply's output, and what the condition says of it. */
export function registration(
  run: ClusterRun,
  r: Pick<ReportedJob, 'wantsRegistration' | 'phase' | 'action'>,
  condition: ConditionInput,
): { actions: ProvisioningAction[]; condition: ConditionInput } {
  const { cluster, context } = run;
  const secretName = kubeconfigSecretName(run.name);
  const registered = `; its output ${context.kubeconfigOutput} registers the cluster (Secret ${secretName})`;
  if (r.wantsRegistration) {
    const output = context.kubeconfigOutput!;
    const value = run.reads?.outputs?.[output]?.value;
    if (typeof value === 'string' && value.trim()) {
      return {
        actions: [{ type: 'register', cluster, secretName, kubeconfig: value }],
        condition: { ...condition, message: condition.message + registered },
      };
    }
    return {
      actions: [],
      condition: {
        ...condition,
        message: `${condition.message}; it has no output ${output}: put the cluster's kubeconfig in a Secret and set spec.connection.kubeconfigSecretRef`,
      },
    };
  }
  if (
    r.phase === 'Succeeded' &&
    r.action === 'apply' &&
    context.kubeconfigOutput &&
    cluster.spec.connection?.kubeconfigSecretRef?.name === secretName
  ) {
    return {
      actions: [],
      condition: { ...condition, message: condition.message + registered },
    };
  }
  return { actions: [], condition };
}
