import { createHash } from 'node:crypto';
import type {
  ArgoClusterConfig,
  ArgoConnection,
} from '@infrared-clusters/plugin-infrared-common';
import { ArgoConnectionRefusedError } from './argoClient';
import { ArgoProbeClient } from './argoProbeClient';
import type { KubeClient } from './client';
import type { RequestCounter } from './counter';
import { toKubeApiError } from './errors';
import {
  classifyProbeError,
  DEFAULT_PROBE_TIMEOUT_MS,
  type ProbeResult,
  type ProbeStep,
} from './probeErrors';

/** A node count is this old at most before the nodes are listed again. */
const DEFAULT_NODE_COUNT_MS = 5 * 60_000;

/** A connection not probed for this long loses its client (a removed or changed cluster). */
const CLIENT_IDLE_MS = 10 * 60_000;

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

/**
 * Probes an inCluster cluster with the management client (the backend's own identity), and any
 * other cluster with a client built from exactly the server and config its Argo CD Secret holds
 * (`argoKubeConfig`, as `kubeClientForArgo`; kept per cluster as a light ArgoProbeClient): what
 * client-go would refuse is reported, never tried another way.
 *
 * @public
 */
export class KubeClusterProber implements ClusterProber {
  /** A client per connection, kept while it is probed, so its keep-alive connection is reused. */
  private readonly clients = new Map<
    string,
    { client: ProbeClient; usedAt: number }
  >();
  private sweptAt = Date.now();
  /** The key of a connection object the caller passes again (the reconciler keeps them per Secret version). */
  private readonly keys = new WeakMap<ArgoConnection, string>();

  /** The node count each client's API server gave last, and when. */
  private readonly nodeCounts = new WeakMap<
    ProbeClient,
    { nodes: number; at: number }
  >();

  constructor(
    private readonly management: KubeClient,
    private readonly options: {
      timeoutMs?: number;
      /** Counts the requests sent to workload clusters. */
      counter?: RequestCounter;
      /**
       * How long a node count is shown before the nodes are listed again (default 5 minutes). Every
       * probe still asks /version, so an unreachable server is seen at once; the count is the
       * half of a steady pass's requests that changes rarely (issue 17: CPU at rest).
       */
      nodeCountMs?: number;
      now?: () => number;
    } = {},
  ) {}

  async probe(target: ProbeTarget, signal?: AbortSignal): Promise<ProbeResult> {
    if (target.kind === 'inCluster') {
      return this.probeWith(this.management, {
        timeoutMs: this.options.timeoutMs,
        signal,
      });
    }
    const connection: ArgoConnection =
      target.kind === 'argo'
        ? { server: target.server, config: target.config }
        : target.argo;
    let client: ProbeClient;
    try {
      client = this.clientFor(connection);
    } catch (e) {
      if (e instanceof ArgoConnectionRefusedError) {
        return {
          ok: false,
          reason: 'ArgoConnectionRefused',
          message: e.message,
        };
      }
      return {
        ok: false,
        reason: 'ProbeFailed',
        message: `cannot build a client for ${connection.server}: ${
          (e as Error).message
        }`,
      };
    }
    const proxy = connection.config.proxyUrl;
    return this.probeWith(client, {
      timeoutMs: this.options.timeoutMs,
      signal,
      ...(proxy ? { via: `proxy ${proxy}` } : {}),
    });
  }

  /** probeCluster, with the node count of a recent probe over the same client. */
  private async probeWith(
    client: ProbeClient,
    options: Parameters<typeof probeCluster>[1],
  ): Promise<ProbeResult> {
    const now = (this.options.now ?? Date.now)();
    const known = this.nodeCounts.get(client);
    const fresh =
      known &&
      now - known.at < (this.options.nodeCountMs ?? DEFAULT_NODE_COUNT_MS);
    const result = await probeCluster(client, {
      ...options,
      ...(fresh ? { knownNodes: known.nodes } : {}),
    });
    if (!result.ok) this.nodeCounts.delete(client);
    else if (!fresh)
      this.nodeCounts.set(client, { nodes: result.nodes, at: now });
    return result;
  }

  /** The client of this exact connection (server, TLS, proxy, credential), made once. */
  private clientFor(connection: ArgoConnection): ProbeClient {
    const now = Date.now();
    if (now - this.sweptAt > CLIENT_IDLE_MS) {
      for (const [key, entry] of this.clients) {
        if (now - entry.usedAt > CLIENT_IDLE_MS) this.clients.delete(key);
      }
      this.sweptAt = now;
    }
    let key = this.keys.get(connection);
    if (!key) {
      key = createHash('sha256')
        .update(JSON.stringify(connection))
        .digest('hex');
      this.keys.set(connection, key);
    }
    const entry = this.clients.get(key) ?? {
      client: new ArgoProbeClient(connection, this.options.counter),
      usedAt: now,
    };
    entry.usedAt = now;
    this.clients.set(key, entry);
    return entry.client;
  }
}
