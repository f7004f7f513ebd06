import { ConflictError } from '@backstage/errors';
import {
  ARGOCD_NAMESPACE,
  ARGOCD_SECRET_TYPE_LABEL,
  argoSecretManager,
  INFRARED_NAMESPACE,
  inspectKubeconfig,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  isInClusterServer,
  secretStrings,
  trimServer,
  type ClusterResource,
  type RegisterClusterRequest,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { ManagementApi } from '@infrared-clusters/infrared-kube';

/** Argo CD cluster Secrets Infrared did not write (`!=` also selects those without the label). */
const OTHERS_CLUSTER_SECRETS = `${ARGOCD_SECRET_TYPE_LABEL}=cluster,${MANAGED_BY_LABEL}!=${MANAGED_BY_INFRARED}`;

/** A server for a message: scheme, host, port and path only (never user information or a query). */
function shown(server: string): string {
  try {
    const url = new URL(server);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(an address that is not a URL)';
  }
}

/**
 * The server Argo CD would key the requested registration by, trailing `/` trimmed: `server` when
 * set, else the kubeconfig's. None for inCluster (Argo CD's own in-cluster destination, no Secret)
 * and for a cluster built with OpenTofu (its server comes with the apply).
 */
export function requestedServer(
  request: RegisterClusterRequest,
): string | undefined {
  if (request.inCluster || request.kubeconfig === undefined) return undefined;
  let server = request.server?.trim();
  if (!server) {
    const inspection = inspectKubeconfig(request.kubeconfig, {
      refuseInClusterServer: true,
    });
    server = inspection.ok ? inspection.server : undefined;
  }
  if (!server || isInClusterServer(server)) return undefined;
  return trimServer(server);
}

// The servers of Secrets by object: a LIST answers an unchanged Secret as the same object
// (SecretListCache), so a kubeconfig is parsed once per version, not once per registration.
const secretServers = new WeakMap<SecretObject, string | undefined>();

function memoized(
  secret: SecretObject,
  read: (secret: SecretObject) => string | undefined,
): string | undefined {
  if (!secretServers.has(secret)) secretServers.set(secret, read(secret));
  return secretServers.get(secret);
}

const serverOf = (secret: SecretObject | undefined): string | undefined =>
  secret &&
  memoized(secret, s => {
    const server = secretStrings(s).server;
    return server?.trim() ? trimServer(server) : undefined;
  });

const kubeconfigServerOf = (
  secret: SecretObject | undefined,
  key: string,
): string | undefined =>
  secret &&
  memoized(secret, s => {
    const text = secretStrings(s)[key];
    const inspection = text ? inspectKubeconfig(text) : undefined;
    return inspection?.ok ? trimServer(inspection.server) : undefined;
  });

// The servers of each Cluster by its version: a Cluster's kubeconfig is read at most once per
// version, not once per registration (issue 25). Entries of Clusters gone are dropped each check.
const clusterServerMemo = new Map<
  string,
  { version: string; servers: Promise<string[]> }
>();

/**
 * The servers an existing Cluster holds or will hold in Argo CD: its status's, its spec.server,
 * and (with neither) its kubeconfig's. Its own Argo CD Secret holds status.argoServer.
 */
function clusterServers(
  api: ManagementApi,
  cluster: ClusterResource,
): Promise<string[]> {
  const { name, uid, resourceVersion } = cluster.metadata;
  const version = `${uid}/${resourceVersion}`;
  const known = clusterServerMemo.get(name);
  if (known?.version === version && resourceVersion) return known.servers;
  const servers = readClusterServers(api, cluster);
  clusterServerMemo.set(name, { version, servers });
  // a failed read is not kept: the next registration reads again
  servers.catch(() => clusterServerMemo.delete(name));
  return servers;
}

function forgetGoneClusters(clusters: ClusterResource[]): void {
  if (clusterServerMemo.size <= clusters.length) return;
  const names = new Set(clusters.map(c => c.metadata.name));
  for (const name of clusterServerMemo.keys()) {
    if (!names.has(name)) clusterServerMemo.delete(name);
  }
}

async function readClusterServers(
  api: ManagementApi,
  cluster: ClusterResource,
): Promise<string[]> {
  const { spec, status } = cluster;
  if (spec.connection?.inCluster) return [];
  const found = [status?.argoServer, spec.server]
    .filter((s): s is string => !!s?.trim())
    .map(trimServer);
  const ref = spec.connection?.kubeconfigSecretRef;
  if (!found.length && ref) {
    const secret = await api.secrets.get(INFRARED_NAMESPACE, ref.name);
    const server = kubeconfigServerOf(secret, ref.key);
    if (server) found.push(server);
  }
  return found.filter(s => !isInClusterServer(s));
}

/**
 * Refuses a registration whose server an existing Cluster or a registrar child already has in Argo
 * CD, which keys clusters by server: two registrations would give it two Secrets for one server.
 * The existing registration wins; the refusal names it. Reads only, writes nothing.
 */
export async function checkServerFree(
  api: ManagementApi,
  request: RegisterClusterRequest,
  /** The Clusters a watch holds; undefined (not synced yet): they are listed. */
  watched?: () => ClusterResource[] | undefined,
): Promise<void> {
  const server = requestedServer(request);
  if (!server) return;
  // the Clusters from the watch; of the Argo CD Secrets only those Infrared did not write (the
  // registrar's children and others): no request grows with the Clusters a registration at a time
  const [clusters, secrets] = await Promise.all([
    watched?.() ?? api.clusters.list(),
    api.secrets.list(ARGOCD_NAMESPACE, OTHERS_CLUSTER_SECRETS),
  ]);
  forgetGoneClusters(clusters);
  const keep = `The existing registration wins and keeps the server; to register it as ${request.name}`;
  for (const cluster of clusters) {
    // being deleted: its Argo CD Secret goes with it (owner reference)
    if (cluster.metadata.deletionTimestamp) continue;
    if (cluster.metadata.name === request.name) continue;
    if ((await clusterServers(api, cluster)).includes(server)) {
      const other = cluster.metadata.name;
      throw new ConflictError(
        `server ${shown(
          server,
        )} is already registered as cluster ${other}, and Argo CD keys clusters by server: a second registration would give it two Secrets for one server. ${keep}, remove cluster ${other} first (DELETE /v1/clusters/${other}), or register another server`,
      );
    }
  }
  for (const secret of secrets) {
    const manager = argoSecretManager(secret.metadata);
    if (manager.kind !== 'registrar' || serverOf(secret) !== server) continue;
    const values = secretStrings(secret);
    const child = values.name || secret.metadata.name.replace(/^cluster-/, '');
    const from = manager.sourceNamespace
      ? `, from namespace ${manager.sourceNamespace}`
      : '';
    throw new ConflictError(
      `server ${shown(
        server,
      )} is already registered as the registrar's child cluster ${child} (Secret ${ARGOCD_NAMESPACE}/${
        secret.metadata.name
      }, label ${manager.label}=${
        manager.value
      }${from}), and Argo CD keys clusters by server: a second registration would give it two Secrets for one server. ${keep}, remove the child first (its source Secret, so the registrar removes its Argo CD Secret), or register another server`,
    );
  }
}
