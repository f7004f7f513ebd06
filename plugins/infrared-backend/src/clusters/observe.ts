import {
  ARGOCD_NAMESPACE,
  INFRARED_NAMESPACE,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type {
  ManagementApi,
  SecretApi,
} from '@infrared-clusters/plugin-infrared-node';
import type { GitopsPublisher } from '../gitops';
import { CRD_MISSING, isCrdMissing } from './errors';
import {
  registrationChange,
  type ListedSecrets,
  type RegistrationChange,
  type SecretSource,
} from './plan';

const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_INFRARED}`;

/** A pass's reads: every Cluster, and the Secrets Infrared manages in namespaces infrared and argocd. */
export async function listClustersAndSecrets(
  api: ManagementApi,
): Promise<{ clusters: ClusterResource[]; secrets: ListedSecrets }> {
  const [clusters, kubeconfigs, argos] = await Promise.all([
    api.clusters.list().catch(e => {
      throw isCrdMissing(e) ? new Error(`infrared: ${CRD_MISSING}`) : e;
    }),
    api.secrets.list(INFRARED_NAMESPACE, MANAGED_SELECTOR),
    api.secrets.list(ARGOCD_NAMESPACE, MANAGED_SELECTOR),
  ]);
  const byName = (list: SecretObject[]) =>
    new Map(list.map(s => [s.metadata.name, s]));
  return {
    clusters,
    secrets: { kubeconfigs: byName(kubeconfigs), argos: byName(argos) },
  };
}

/** A Secret from where the planner says (`secretReads`). */
export async function readSecret(
  secrets: SecretApi,
  source: SecretSource,
): Promise<SecretObject | undefined> {
  if ('listed' in source) return source.listed;
  if ('get' in source) {
    return secrets.get(source.get.namespace, source.get.name);
  }
  return undefined;
}

/** The registration change of each cluster, or why there is none: the gitops repo, described once a pass. */
export type Registrations = (
  clusterName: string,
) => RegistrationChange | { error: string };

/**
 * The registration changes made so far, by cluster name, for one repository: the files (YAML) of
 * a registration are rendered once, not on every pass over every cluster.
 */
export class RegistrationMemo {
  private repoKey = '';
  private readonly byCluster = new Map<string, RegistrationChange>();

  changeFor(
    clusterName: string,
    managementCluster: string,
    repo: { repoUrl: string; defaultBranch: string },
  ): RegistrationChange {
    const repoKey = JSON.stringify([
      managementCluster,
      repo.repoUrl,
      repo.defaultBranch,
    ]);
    if (repoKey !== this.repoKey) {
      this.byCluster.clear();
      this.repoKey = repoKey;
    }
    let change = this.byCluster.get(clusterName);
    if (!change) {
      change = registrationChange(clusterName, managementCluster, repo);
      this.byCluster.set(clusterName, change);
    }
    return change;
  }

  forget(clusterName: string): void {
    this.byCluster.delete(clusterName);
  }
}

export async function describeRegistrations(
  publisher: GitopsPublisher,
  managementCluster: string,
  memo: RegistrationMemo = new RegistrationMemo(),
): Promise<Registrations> {
  try {
    const repo = await publisher.describe();
    return clusterName => memo.changeFor(clusterName, managementCluster, repo);
  } catch (e) {
    const error = `the gitops repository cannot be described: ${
      (e as Error).message
    }`;
    return () => ({ error });
  }
}
