import {
  ARGOCD_NAMESPACE,
  argoSecretName,
  INFRARED_NAMESPACE,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import {
  kubeconfigSecretRef,
  type ClusterProber,
  type ManagementApi,
  type ResolvedConnection,
} from '@infrared-clusters/infrared-kube';
import {
  appOfAppsPath,
  registrationFiles,
  type GitopsPublisher,
} from '../gitops';
import type { ConnectionMemo } from './connectionMemo';
import { CRD_MISSING, isCrdMissing } from './errors';
import type { ObservedCluster, RegistrationChange } from './plan';

/*
 * The reads of a pass, and nothing else: what the planner (./plan) needs about one Cluster comes
 * from `observeCluster`, in one call. Nothing here decides what to write.
 */

/** The label selector of the Secrets Infrared manages (the pass LISTs and watches them by it). */
export const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_INFRARED}`;

/** Secrets by name: a Map from a LIST, or a watch's cache. */
export interface SecretsByName {
  get(name: string): SecretObject | undefined;
}

/** The Secrets a pass read by our labels (namespaces infrared and argocd): LISTed or watched. */
export interface ListedSecrets {
  kubeconfigs: SecretsByName;
  argos: SecretsByName;
}

/** A Cluster to reconcile, with what the pass's LISTs had for it (none: read it with GETs). */
export interface Target {
  name: string;
  listed?: { cluster: ClusterResource; secrets: ListedSecrets };
}

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

/** What `observeCluster` reads with, besides the Cluster to read. */
export interface ObserveContext {
  api: ManagementApi;
  prober: ClusterProber;
  /** Each Cluster's connection, resolved once per Secret version and generation. */
  connections: ConnectionMemo;
  /** The gitops repo, described once a pass: by its first observation, shared by the others. */
  repo: PassRepo;
  /** The time of condition transitions, taken once the probe answered. */
  clock: () => Date;
  signal?: AbortSignal;
}

/**
 * Everything the planner needs about one Cluster, read in one place: the Cluster (from the LIST,
 * else a GET), its kubeconfig and Argo CD Secrets (`secretReads`), its connection, the probe's
 * answer (`probeTarget`), and its registration change (the gitops repo described once a pass).
 * Undefined when the Cluster is gone or the pass was aborted.
 */
export async function observeCluster(
  target: Target,
  context: ObserveContext,
): Promise<ObservedCluster | undefined> {
  const { api, prober, signal } = context;
  const cluster =
    target.listed?.cluster ?? (await api.clusters.get(target.name));
  if (!cluster) return undefined;
  const reads = secretReads(cluster, target.listed?.secrets);
  const [kubeconfigSecret, argoSecret, registrations] = await Promise.all([
    readSecret(api, reads.kubeconfigSecret),
    readSecret(api, reads.argoSecret),
    (context.repo.described ??= describeRegistrations(context.repo)),
  ]);
  const connection = await context.connections.resolveReading(
    cluster,
    kubeconfigSecret,
    () =>
      api.secrets.get(
        INFRARED_NAMESPACE,
        kubeconfigSecret?.metadata.name ?? '',
      ),
  );
  const probeWith = probeTarget(cluster, connection);
  const probe = probeWith && (await prober.probe(probeWith, signal));
  if (signal?.aborted) return undefined;
  return {
    cluster,
    connection,
    kubeconfigSecret,
    argoSecret,
    probe,
    registration: registrations(cluster.metadata.name),
    now: context.clock().toISOString(),
  };
}

/** Where a Secret is read from: the pass's LIST, a GET, or nowhere. */
export type SecretSource =
  | { listed: SecretObject }
  | { get: { namespace: string; name: string } }
  | { none: true };

const NONE: SecretSource = { none: true };

/**
 * Where each of a Cluster's Secrets is read from. From the LISTs when they have it; a GET for what
 * they miss and may still exist: a kubeconfig Secret made by hand (no label yet), an Argo CD Secret
 * that is not ours yet or is another's (by hand, the registrar). Without LISTs (a pass over named
 * Clusters, a requeue) every Secret that may exist is read with a GET. Nothing for a Cluster being
 * deleted.
 */
export function secretReads(
  cluster: ClusterResource,
  listed?: ListedSecrets,
): { kubeconfigSecret: SecretSource; argoSecret: SecretSource } {
  if (cluster.metadata.deletionTimestamp) {
    return { kubeconfigSecret: NONE, argoSecret: NONE };
  }
  const ref = kubeconfigSecretRef(cluster);
  const argoName = argoSecretName(cluster.metadata.name);
  const fromList = (found: SecretObject | undefined, get: SecretSource) =>
    found ? { listed: found } : get;
  const getKubeconfig: SecretSource = ref
    ? { get: { namespace: INFRARED_NAMESPACE, name: ref.name } }
    : NONE;
  const getArgo: SecretSource = {
    get: { namespace: ARGOCD_NAMESPACE, name: argoName },
  };
  if (!listed) return { kubeconfigSecret: getKubeconfig, argoSecret: getArgo };
  return {
    kubeconfigSecret: ref
      ? fromList(listed.kubeconfigs.get(ref.name), getKubeconfig)
      : NONE,
    // Not in the LIST and no kubeconfig: an inCluster Cluster, for which only ours matters.
    argoSecret: fromList(listed.argos.get(argoName), ref ? getArgo : NONE),
  };
}

/** The connection to probe, or none: a Cluster being deleted, or one that can't be reached. */
export function probeTarget(
  cluster: ClusterResource,
  connection: ResolvedConnection,
): Exclude<ResolvedConnection, { kind: 'unusable' }> | undefined {
  if (cluster.metadata.deletionTimestamp) return undefined;
  return connection.kind === 'unusable' ? undefined : connection;
}

async function readSecret(
  api: ManagementApi,
  source: SecretSource,
): Promise<SecretObject | undefined> {
  if ('listed' in source) return source.listed;
  if ('get' in source) {
    return api.secrets.get(source.get.namespace, source.get.name);
  }
  return undefined;
}

/** The registration change of each cluster, or why there is none: the gitops repo, described once a pass. */
export type Registrations = (
  clusterName: string,
) => RegistrationChange | { error: string };

/** The gitops change that registers one cluster: its files, rendered by ../gitops/files. */
export function registrationChange(
  clusterName: string,
  managementCluster: string,
  repo: { repoUrl: string; defaultBranch: string },
): RegistrationChange {
  return {
    key: `cluster-${clusterName}`,
    title: `Register cluster ${clusterName}`,
    body: `Infrared registers the cluster \`${clusterName}\`: the Argo CD Application \`registry-${clusterName}\` on the management cluster \`${managementCluster}\` syncs \`registry/clusters/${clusterName}/components\`.`,
    files: registrationFiles({
      clusterName,
      managementCluster,
      repoUrl: repo.repoUrl,
      branch: repo.defaultBranch,
    }),
    gitopsPath: appOfAppsPath(clusterName, managementCluster),
    defaultBranch: repo.defaultBranch,
  };
}

/**
 * The registration changes made so far, by cluster name, for one repository: the files (YAML) of
 * a registration are rendered once, not on every pass over every cluster.
 */
export class RegistrationMemo {
  private repoKey = '';
  /** The last repo description seen: a pass hands the same one for every cluster. */
  private lastRepo?: [string, { repoUrl: string; defaultBranch: string }];
  private readonly byCluster = new Map<string, RegistrationChange>();

  changeFor(
    clusterName: string,
    managementCluster: string,
    repo: { repoUrl: string; defaultBranch: string },
  ): RegistrationChange {
    if (this.lastRepo?.[0] !== managementCluster || this.lastRepo[1] !== repo) {
      this.lastRepo = [managementCluster, repo];
      const repoKey = JSON.stringify([
        managementCluster,
        repo.repoUrl,
        repo.defaultBranch,
      ]);
      if (repoKey !== this.repoKey) {
        this.byCluster.clear();
        this.repoKey = repoKey;
      }
    }
    let change = this.byCluster.get(clusterName);
    if (!change) {
      change = registrationChange(clusterName, managementCluster, repo);
      this.byCluster.set(clusterName, change);
    }
    return change;
  }

  /** The clusters it keeps a change of. */
  names(): Iterable<string> {
    return this.byCluster.keys();
  }

  forget(clusterName: string): void {
    this.byCluster.delete(clusterName);
  }
}

/** The gitops repo as one pass sees it. */
export interface PassRepo {
  publisher: GitopsPublisher;
  managementCluster: string;
  /** The registration changes rendered so far, kept across passes. */
  memo: RegistrationMemo;
  /** The repo's description: set by the pass's first observation, shared by the others. */
  described?: Promise<Registrations>;
}

async function describeRegistrations({
  publisher,
  managementCluster,
  memo,
}: PassRepo): Promise<Registrations> {
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
