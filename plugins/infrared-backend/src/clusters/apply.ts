import {
  scrubSecrets,
  type ClusterResource,
  type ClusterStatus,
} from '@infrared-clusters/plugin-infrared-common';
import {
  isAlreadyExists,
  isConflict,
  isNotFound,
  retryOnConflict,
  type ClusterApi,
  type SecretApi,
} from '@infrared-clusters/plugin-infrared-node';
import { statusWrite, type SecretAction } from './plan';

/**
 * A write lost a race: a resourceVersion or UID precondition failed, the name was taken meanwhile,
 * or the object is gone. The executor requeues the Cluster: reads it again and plans again.
 */
export const lostRace = (e: unknown) =>
  isConflict(e) || isAlreadyExists(e) || isNotFound(e);

/** One Secret action as one API call. Throws what the API server answered (see `lostRace`). */
export async function applySecretAction(
  secrets: SecretApi,
  action: SecretAction,
): Promise<void> {
  switch (action.type) {
    case 'adoptKubeconfigSecret':
      await secrets.patchMetadata(
        action.namespace,
        action.name,
        { labels: action.labels, ownerReferences: action.ownerReferences },
        action.resourceVersion,
      );
      return;
    case 'createArgoSecret':
      await secrets.create(action.secret);
      return;
    case 'replaceArgoSecret':
      await secrets.replace(action.secret);
      return;
    case 'deleteArgoSecret':
      try {
        await secrets.delete(action.namespace, action.name, {
          uid: action.uid,
        });
      } catch (e) {
        // Already gone: what the action wanted.
        if (!isNotFound(e)) throw e;
      }
      return;
    default:
      throw new Error(`unknown action ${(action as SecretAction).type}`);
  }
}

/** The status with every condition message scrubbed: they quote Kubernetes, git and GitHub errors. */
function scrubConditions(status: ClusterStatus): ClusterStatus {
  if (!status.conditions) return status;
  return {
    ...status,
    conditions: status.conditions.map(c =>
      c.message ? { ...c, message: scrubSecrets(c.message) } : c,
    ),
  };
}

/**
 * Writes the status `statusWrite` says, on top of `read`; on a conflict, again on top of a fresh
 * GET (bounded). Only the status is retried: the writes before it (a publish) already happened.
 * Resolves whether it wrote.
 */
export async function writeStatus(
  clusters: ClusterApi,
  read: ClusterResource,
  desired: ClusterStatus,
): Promise<boolean> {
  return retryOnConflict(async attempt => {
    const current =
      attempt === 1 ? read : await clusters.get(read.metadata.name);
    const next = statusWrite(current, scrubConditions(desired));
    if (!next) return false;
    try {
      await clusters.replaceStatus(next);
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
    return true;
  });
}

/** Creates a Cluster; when another made it meanwhile (another replica), reads that one. */
export async function createCluster(
  clusters: ClusterApi,
  cluster: ClusterResource,
): Promise<ClusterResource | undefined> {
  try {
    return await clusters.create(cluster);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
    return clusters.get(cluster.metadata.name);
  }
}
