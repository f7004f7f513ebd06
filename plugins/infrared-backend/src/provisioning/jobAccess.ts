/**
 * What the executor makes before a Cluster's OpenTofu Job, and after it:
 *
 * - **the upgrade** (once per Cluster built before the Jobs had a namespace of their own): its state
 *   Secret `tfstate-default-cluster-<name>` moves from `infrared` to the Jobs' namespace with the
 *   same content (the old one and its free Lease are deleted), and its credentials Secret, when it
 *   is only in `infrared`, is copied (the original stays: the backend never deletes a Secret it did
 *   not make; no Job reads `infrared` any more). A state locked in `infrared` (a Job made before
 *   the upgrade still runs) is waited for;
 * - **the state** of a new Cluster: an empty state Secret and a free Lease (OpenTofu's labels), so
 *   the Job only ever GETs and UPDATEs them;
 * - **the Job's identity**: ServiceAccount, Role (resourceNames: that state Secret and Lease only)
 *   and RoleBinding `tofu-<cluster>-<uid prefix>`, owned by the Cluster;
 * - after the Job is made, the Job as their second owner: they stay while a Job of a removed
 *   Cluster still runs, and go with the last of their owners.
 *
 * Costs requests only when a Job is made, never in a steady pass.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  INFRARED_NAMESPACE,
  MANAGED_BY_LABEL,
  tofuStateLeaseName,
  tofuStateSecretName,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import {
  tofuAccessObjects,
  tofuStateObjects,
  type ObservedJob,
  type ProvisioningKubeApi,
  type ProvisioningObject,
} from '@infrared-clusters/infrared-kube';

const SECRET = ['v1', 'Secret'] as const;
const LEASE = ['coordination.k8s.io/v1', 'Lease'] as const;

/** A copy of a Secret for another namespace: its type, data, labels and annotations. */
function copyOf(secret: ProvisioningObject, namespace: string) {
  const { name, labels, annotations } = secret.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: secret.type ?? 'Opaque',
    metadata: {
      name,
      namespace,
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
    },
    ...(secret.data ? { data: secret.data } : {}),
  };
}

const sameData = (a?: ProvisioningObject, b?: ProvisioningObject) =>
  JSON.stringify(a?.data ?? {}) === JSON.stringify(b?.data ?? {});

export interface JobAccessOptions {
  kube: ProvisioningKubeApi;
  logger: LoggerService;
  /** The Jobs' namespace. */
  namespace: string;
}

/**
 * Moves a Cluster's state (and copies its credentials) from `infrared`, once. Returns why the Job
 * must wait, if it must.
 */
export async function migrateState(
  cluster: ClusterResource,
  { kube, logger, namespace }: JobAccessOptions,
): Promise<string | undefined> {
  if (namespace === INFRARED_NAMESPACE) return undefined;
  const name = cluster.metadata.name;
  const secretName = tofuStateSecretName(name);
  const leaseName = tofuStateLeaseName(name);
  const current = await kube.getObject(...SECRET, namespace, secretName);
  const old = await kube.getObject(...SECRET, INFRARED_NAMESPACE, secretName);
  if (old && (!current || sameData(current, old))) {
    const lease = await kube.getObject(...LEASE, INFRARED_NAMESPACE, leaseName);
    if ((lease as any)?.spec?.holderIdentity) {
      return `the state ${INFRARED_NAMESPACE}/${secretName} is locked by a Job made before the upgrade; it moves to ${namespace} once that Job ends`;
    }
    if (!current) await kube.createObject(copyOf(old, namespace));
    const moved = await kube.getObject(...SECRET, namespace, secretName);
    if (!sameData(moved, old)) {
      return `the state ${namespace}/${secretName} differs from ${INFRARED_NAMESPACE}/${secretName}; not moved`;
    }
    await kube.deleteObject(old);
    if (lease) await kube.deleteObject(lease);
    logger.info(
      `infrared: the OpenTofu state of cluster ${name} moved from ${INFRARED_NAMESPACE}/${secretName} to ${namespace}/${secretName}`,
    );
  } else if (old) {
    logger.warn(
      `infrared: cluster ${name} has a state Secret in ${INFRARED_NAMESPACE} and another in ${namespace}; the Job uses ${namespace}'s, ${INFRARED_NAMESPACE}'s is left as it is`,
    );
  }
  await copyCredentials(cluster, { kube, logger, namespace });
  return undefined;
}

/**
 * A credentials Secret a Cluster built before the upgrade named, found only in `infrared`: copied
 * to the Jobs' namespace. Only for a Cluster that ran a Job before (status.provision), and never a
 * Secret Infrared manages (a kubeconfig Secret is not credentials).
 */
async function copyCredentials(
  cluster: ClusterResource,
  { kube, logger, namespace }: JobAccessOptions,
): Promise<void> {
  const credentials = cluster.spec.provision?.credentialsSecretRef?.name;
  if (!credentials || !cluster.status?.provision?.job) return;
  if (await kube.getObject(...SECRET, namespace, credentials)) return;
  const old = await kube.getObject(...SECRET, INFRARED_NAMESPACE, credentials);
  if (
    !old ||
    old.metadata.labels?.[MANAGED_BY_LABEL] ||
    String(old.type ?? '').startsWith('kubernetes.io/')
  )
    return;
  await kube.createObject(copyOf(old, namespace));
  logger.info(
    `infrared: the credentials Secret ${INFRARED_NAMESPACE}/${credentials} of cluster ${cluster.metadata.name} was copied to ${namespace}; delete the original once no Cluster built before the upgrade names it`,
  );
}

/**
 * The state Secret, the Lease and the Job's ServiceAccount, Role and RoleBinding; each made unless
 * it exists. Returns why the Job must wait, if it must.
 */
export async function prepareJob(
  cluster: ClusterResource,
  options: JobAccessOptions,
): Promise<string | undefined> {
  const waits = await migrateState(cluster, options);
  if (waits) return waits;
  const { kube, namespace } = options;
  const state = tofuStateObjects(cluster.metadata.name, namespace);
  await kube.createObject(state.secret);
  await kube.createObject(state.lease);
  for (const object of tofuAccessObjects(cluster, namespace)) {
    await kube.createObject(object);
  }
  return undefined;
}

/** The Job as an owner of the ServiceAccount, Role and RoleBinding it runs as. */
export async function ownByJob(
  cluster: ClusterResource,
  job: ObservedJob,
  { kube, namespace }: JobAccessOptions,
): Promise<void> {
  const uid = job.metadata.uid;
  if (!uid) return;
  for (const object of tofuAccessObjects(cluster, namespace)) {
    await kube.addOwner(object, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: job.metadata.name,
      uid,
    });
  }
}
