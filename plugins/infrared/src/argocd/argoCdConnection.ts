import { trimServer } from '@infrared-clusters/plugin-infrared-common';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { redactCredentials } from './redactCredentials';
import type { ArgoCdCluster } from './types';

/** What Argo CD says of one of our clusters: the panel's "Argo CD sees this cluster" row. */
export type ArgoCdConnection =
  | { status: 'Successful'; attemptedAt?: string }
  | { status: 'Failed'; message: string; attemptedAt?: string }
  | { status: 'Unknown'; reason: string; attemptedAt?: string };

/**
 * Finds our cluster in Argo CD's list and reads its connection state. Argo CD keys clusters by
 * server URL (trailing slashes trimmed, as our Argo CD Secret stores it), so the server decides;
 * among entries with that server the one named like the cluster wins, and a cluster without an
 * Argo CD server yet is looked up by name.
 */
export function argoCdConnectionOf(
  cluster: Pick<ClusterView, 'name' | 'argoServer'>,
  items: ArgoCdCluster[],
): ArgoCdConnection {
  const server = cluster.argoServer && trimServer(cluster.argoServer);
  const candidates = server
    ? items.filter(i => i.server && trimServer(i.server) === server)
    : items.filter(i => i.name === cluster.name);
  const item = candidates.find(i => i.name === cluster.name) ?? candidates[0];
  if (!item) {
    return {
      status: 'Unknown',
      reason: server
        ? `Argo CD lists no cluster with server ${server}`
        : `Argo CD lists no cluster named ${cluster.name}`,
    };
  }
  const state = item.info?.connectionState?.status
    ? item.info.connectionState
    : item.connectionState ?? {};
  const attemptedAt = state.attemptedAt || undefined;
  const message = redactCredentials(state.message ?? '').trim();
  switch (state.status) {
    case 'Successful':
      return { status: 'Successful', attemptedAt };
    case 'Failed':
      return {
        status: 'Failed',
        message: message || 'Argo CD gave no message',
        attemptedAt,
      };
    default:
      return {
        status: 'Unknown',
        reason: message || 'Argo CD has not tried to connect yet',
        attemptedAt,
      };
  }
}
