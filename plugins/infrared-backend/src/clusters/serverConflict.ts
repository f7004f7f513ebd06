import { createHash } from 'node:crypto';
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
import type { ReadServers, ServerIndex } from './serverIndex';

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
    // a copy: the parsed server is a slice of the kubeconfig's text, which it would keep alive
    return inspection?.ok
      ? structuredClone(trimServer(inspection.server))
      : undefined;
  });

/**
 * Which kubeconfig a read is of: a digest of the text as the Secret holds it (not its metadata's
 * version; not the text, which the index would keep for every Cluster).
 */
export function kubeconfigVersion(
  secret: Pick<SecretObject, 'data' | 'stringData'>,
  key: string,
): string | undefined {
  const text = secret.stringData?.[key] ?? secret.data?.[key];
  return text === undefined
    ? undefined
    : createHash('sha256').update(text).digest('base64');
}

/**
 * The servers a Cluster holds through its kubeconfig Secret (it names none itself). A kubeconfig
 * unchanged since the last version's read is not parsed again: a GET gives a new object each time,
 * and the owner reference the registration sets changes the Secret's resourceVersion.
 */
export function kubeconfigServersReader(api: ManagementApi): ReadServers {
  return async (cluster, last) => {
    const ref = cluster.spec.connection?.kubeconfigSecretRef;
    if (!ref) return { servers: [] };
    const secret = await api.secrets.get(INFRARED_NAMESPACE, ref.name);
    if (!secret) return { servers: [] };
    const from = kubeconfigVersion(secret, ref.key);
    if (from !== undefined && last?.from === from) return last;
    const server = kubeconfigServerOf(secret, ref.key);
    return { servers: server ? [server] : [], from };
  };
}

/**
 * Refuses a registration whose server an existing Cluster or a registrar child already has in Argo
 * CD, which keys clusters by server: two registrations would give it two Secrets for one server.
 * The existing registration wins; the refusal names it. Reads only, writes nothing.
 */
export async function checkServerFree(
  api: ManagementApi,
  request: RegisterClusterRequest,
  /** requestedServer(request), read once per registration: each read parses the kubeconfig. */
  server: string | undefined,
  /** The servers of the Clusters, brought to the Clusters' list here. */
  index: ServerIndex,
  /** The Clusters a watch holds; undefined (not synced yet): they are listed. */
  watched?: () => ClusterResource[] | undefined,
): Promise<void> {
  if (!server) return;
  const keep = `The existing registration wins and keeps the server; to register it as ${request.name}`;
  // the Clusters from the watch; of the Argo CD Secrets only those Infrared did not write (the
  // registrar's children and others): no request grows with the Clusters a registration at a time
  const [clusters, secrets] = await Promise.all([
    watched?.() ?? api.clusters.list(),
    api.secrets.list(ARGOCD_NAMESPACE, OTHERS_CLUSTER_SECRETS),
  ]);
  index.sync(clusters);
  const other = await index.holder(server, request.name);
  if (other) {
    throw new ConflictError(
      `server ${shown(
        server,
      )} is already registered as cluster ${other}, and Argo CD keys clusters by server: a second registration would give it two Secrets for one server. ${keep}, remove cluster ${other} first (DELETE /v1/clusters/${other}), or register another server`,
    );
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
