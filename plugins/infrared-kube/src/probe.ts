import type {
  ArgoClusterConfig,
  ArgoConnection,
} from '@infrared-clusters/plugin-infrared-common';
import type { KubeClient } from './client';
import { toKubeApiError } from './errors';
import {
  classifyProbeError,
  DEFAULT_PROBE_TIMEOUT_MS,
  type ProbeResult,
  type ProbeStep,
} from './probeErrors';

/**
 * A request that is sent again once when its connection was reset: the server may close a
 * kept-alive connection just as a request goes out on it.
 */
async function onceMoreOnReset<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const reason = toKubeApiError(error, 'probe').reason;
    if (reason !== 'ECONNRESET' && reason !== 'EPIPE') throw error;
    return send();
  }
}

/** The fields of a node list (as the API server sends it) the count reads. */
interface NodeList {
  items: unknown[];
  metadata?: { continue?: string; remainingItemCount?: number | null };
}

/**
 * What the probe reads a cluster through: a KubeClient, or the prober's lighter client of an Argo CD
 * connection.
 *
 * @public
 */
export type ProbeClient = Pick<KubeClient, 'server' | 'getKept'>;

/**
 * Reaches a cluster's API server: GET /version, then counts Nodes (a LIST with a limit, following
 * `continue` when the server does not say how many remain). Bounded by `timeoutMs` in all.
 *
 * @public
 */
export async function probeCluster(
  client: ProbeClient,
  options: {
    timeoutMs?: number;
    signal?: AbortSignal;
    pageSize?: number;
    /** How the server is reached when not directly (`proxy <url>`), for the messages. */
    via?: string;
    /** The node count of a recent probe: given, the nodes are not listed again. */
    knownNodes?: number;
  } = {},
): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const signals = [AbortSignal.timeout(timeoutMs)];
  if (options.signal) signals.push(options.signal);
  const signal = AbortSignal.any(signals);
  const limit = options.pageSize ?? 500;
  let step: ProbeStep = 'version';
  try {
    const version = await onceMoreOnReset(() =>
      client.getKept<{ gitVersion: string }>('/version', signal),
    );
    if (options.knownNodes !== undefined) {
      return {
        ok: true,
        kubernetesVersion: version.gitVersion,
        nodes: options.knownNodes,
      };
    }
    step = 'nodes';
    let nodes = 0;
    let next: string | undefined;
    for (let page = 0; page < 100; page++) {
      const query = new URLSearchParams({ limit: String(limit) });
      if (next) query.set('continue', next);
      const list = await client.getKept<NodeList>(
        `/api/v1/nodes?${query}`,
        signal,
      );
      nodes += list.items.length;
      const remaining = list.metadata?.remainingItemCount;
      next = list.metadata?.continue || undefined;
      if (remaining !== undefined && remaining !== null) {
        nodes += Number(remaining);
        break;
      }
      if (!next) break;
    }
    return { ok: true, kubernetesVersion: version.gitVersion, nodes };
  } catch (error) {
    return {
      ok: false,
      ...classifyProbeError(
        toKubeApiError(error, 'probe'),
        options.via
          ? `${client.server} (through ${options.via})`
          : client.server,
        step,
        timeoutMs,
      ),
    };
  }
}

/**
 * What to reach: the management cluster itself, or a cluster exactly as Argo CD will reach it
 * from its cluster Secret: `server` (after spec.server) and `config`, as `argoConnectionFor`
 * (`@infrared-clusters/plugin-infrared-common`) gives them. `kubeconfig` is the backend's connection of a
 * kubeconfig Cluster, which carries that same Argo CD connection as `argo`.
 *
 * @public
 */
export type ProbeTarget =
  | { kind: 'inCluster' }
  | { kind: 'argo'; server: string; config: ArgoClusterConfig }
  | { kind: 'kubeconfig'; argo: ArgoConnection };

/**
 * Reaches clusters; the reconciler's only view of their API servers.
 *
 * @public
 */
export interface ClusterProber {
  probe(target: ProbeTarget, signal?: AbortSignal): Promise<ProbeResult>;
}
