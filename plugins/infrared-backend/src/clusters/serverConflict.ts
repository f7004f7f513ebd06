import { ConflictError } from '@backstage/errors';
import {
  ARGOCD_NAMESPACE,
  ARGOCD_SECRET_TYPE_LABEL,
  argoSecretManager,
  argoSecretName,
  INFRARED_NAMESPACE,
  inspectKubeconfig,
  isInClusterServer,
  secretStrings,
  trimServer,
  type ClusterResource,
  type RegisterClusterRequest,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { ManagementApi } from '@infrared-clusters/plugin-infrared-node';

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

const serverOf = (secret: SecretObject | undefined): string | undefined => {
  const server = secret && secretStrings(secret).server;
  return server?.trim() ? trimServer(server) : undefined;
};

/**
 * The servers an existing Cluster holds or will hold in Argo CD: its status's, its spec.server,
 * its Argo CD Secret's, and (with none of the first two) its kubeconfig's.
 */
async function clusterServers(
  api: ManagementApi,
  cluster: ClusterResource,
  argoSecrets: ReadonlyMap<string, SecretObject>,
): Promise<string[]> {
  const { spec, status } = cluster;
  if (spec.connection?.inCluster) return [];
  const servers = [status?.argoServer, spec.server]
    .filter((s): s is string => !!s?.trim())
    .map(trimServer);
  const argo = serverOf(argoSecrets.get(argoSecretName(cluster.metadata.name)));
  if (argo) servers.push(argo);
  const ref = spec.connection?.kubeconfigSecretRef;
  if (!status?.argoServer && !spec.server?.trim() && ref) {
    const secret = await api.secrets.get(INFRARED_NAMESPACE, ref.name);
    const text = secret && secretStrings(secret)[ref.key];
    const inspection = text ? inspectKubeconfig(text) : undefined;
    if (inspection?.ok) servers.push(trimServer(inspection.server));
  }
  return servers.filter(s => !isInClusterServer(s));
}

/**
 * Refuses a registration whose server an existing Cluster or a registrar child already has in Argo
 * CD, which keys clusters by server: two registrations would give it two Secrets for one server.
 * The existing registration wins; the refusal names it. Reads only, writes nothing.
 */
export async function checkServerFree(
  api: ManagementApi,
  request: RegisterClusterRequest,
): Promise<void> {
  const server = requestedServer(request);
  if (!server) return;
  const [clusters, secrets] = await Promise.all([
    api.clusters.list(),
    api.secrets.list(ARGOCD_NAMESPACE, `${ARGOCD_SECRET_TYPE_LABEL}=cluster`),
  ]);
  const argoSecrets = new Map(secrets.map(s => [s.metadata.name, s]));
  const keep = `The existing registration wins and keeps the server; to register it as ${request.name}`;
  for (const cluster of clusters) {
    // being deleted: its Argo CD Secret goes with it (owner reference)
    if (cluster.metadata.deletionTimestamp) continue;
    if (cluster.metadata.name === request.name) continue;
    if ((await clusterServers(api, cluster, argoSecrets)).includes(server)) {
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
