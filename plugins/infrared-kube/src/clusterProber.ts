import { createHash } from 'node:crypto';
import type { ArgoConnection } from '@infrared-clusters/plugin-infrared-common';
import { ArgoConnectionRefusedError } from './argoClient';
import { ArgoProbeClient } from './argoProbeClient';
import type { KubeClient } from './client';
import type { RequestCounter } from './counter';
import {
  probeCluster,
  type ClusterProber,
  type ProbeClient,
  type ProbeTarget,
} from './probe';
import { DEFAULT_PROBE_TIMEOUT_MS, type ProbeResult } from './probeErrors';
import { reachable, reachAddressOf, type ReachAddress } from './reach';

/** A node count is this old at most before the nodes are listed again. */
const DEFAULT_NODE_COUNT_MS = 5 * 60_000;

/** Full probes a second the prober spreads over a fleet reached directly (about 0.5% of a core). */
const FULL_PROBES_PER_SECOND = 2;

/** The longest a full probe's answer stands while the server's address keeps accepting connections. */
const MAX_FULL_PROBE_MS = 10 * 60_000;

/** A connection not probed for this long loses its client (a removed or changed cluster). */
const CLIENT_IDLE_MS = 15 * 60_000;

/** A cluster's client, and (reached directly) its last full probe's answer while that stands. */
interface Reached {
  client: ArgoProbeClient;
  usedAt: number;
  /** The full probe under way. */
  probing?: Promise<ProbeResult>;
  /** The last full probe, when it succeeded: its answer, when, and the address it reached. */
  full?: {
    result: ProbeResult & { ok: true };
    at: number;
    address: ReachAddress;
  };
}

/**
 * Probes an inCluster cluster with the management client (the backend's own identity), and any
 * other cluster with a client built from exactly the server and config its Argo CD Secret holds
 * (`argoKubeConfig`, as `kubeClientForArgo`; a light ArgoProbeClient): what client-go would refuse
 * is reported, never tried another way.
 *
 * A cluster reached directly (no proxy) gets a full probe (`/version` and its node count over TLS,
 * with its credential) over a connection closed after it; its answer stands for as long as full
 * probes of the whole fleet at 2 a second take (every probe for up to 60 clusters probed every
 * 30 s, 8 minutes for 1,000, at most 10 minutes), while each probe in between checks that the
 * server's address still accepts a TCP connection; when it does not, it probes in full at once (so
 * a stopped server shows as Unreachable on the next pass). No TLS connection is kept per cluster
 * (issue 25: 55 KB of native memory each, where a fleet of 10,000 has 300 MB in all), and a check
 * costs a tenth of a handshake's CPU. A credential revoked, or an API server down behind a load
 * balancer that still accepts connections, shows at the cluster's next full probe.
 *
 * @public
 */
export class KubeClusterProber implements ClusterProber {
  private readonly reached = new Map<string, Reached>();
  /** Proxied connections are probed in full every time, over a KubeClient kept per connection. */
  private readonly proxied = new Map<string, Reached>();
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
       * How long a node count is shown before the nodes are listed again (default 5 minutes), for
       * the clusters probed in full every time (inCluster, through a proxy).
       */
      nodeCountMs?: number;
      /** How long a full probe's answer stands while the address accepts connections (default: by the fleet's size). */
      fullProbeMs?: number;
      now?: () => number;
    } = {},
  ) {}

  async probe(target: ProbeTarget, signal?: AbortSignal): Promise<ProbeResult> {
    if (target.kind === 'inCluster') {
      return this.probeWith(this.management, signal);
    }
    const connection: ArgoConnection =
      target.kind === 'argo'
        ? { server: target.server, config: target.config }
        : target.argo;
    try {
      if (connection.config.proxyUrl) {
        const client = this.clientFor(connection, this.proxied);
        return await this.probeWith(
          client.client,
          signal,
          connection.config.proxyUrl,
        );
      }
      return await this.probeDirect(
        this.clientFor(connection, this.reached),
        signal,
      );
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
  }

  /** The last full probe while it stands and the address accepts connections; else a full probe. */
  private async probeDirect(
    reached: Reached,
    signal?: AbortSignal,
  ): Promise<ProbeResult> {
    const { full } = reached;
    const fullProbeMs =
      this.options.fullProbeMs ??
      Math.min(
        MAX_FULL_PROBE_MS,
        (this.reached.size * 1000) / FULL_PROBES_PER_SECOND,
      );
    if (full && this.now() - full.at < fullProbeMs) {
      const timeoutMs = this.options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
      if (await reachable(full.address, timeoutMs, signal)) return full.result;
    }
    reached.full = undefined;
    // one full probe at a time per connection: Clusters that share one (the same server and
    // credential) share its answer, and none closes the connection under another's request
    reached.probing ??= this.fullProbe(reached, signal).finally(() => {
      reached.probing = undefined;
    });
    return reached.probing;
  }

  /** `/version` and the nodes over a connection closed after them; a success stands. */
  private async fullProbe(
    reached: Reached,
    signal?: AbortSignal,
  ): Promise<ProbeResult> {
    const at = this.now();
    const result = await probeCluster(reached.client, {
      timeoutMs: this.options.timeoutMs,
      signal,
    });
    reached.client.closeConnection();
    if (result.ok) {
      const address = await reachAddressOf(reached.client.server).catch(
        () => undefined,
      );
      if (address) reached.full = { result, at, address };
    }
    return result;
  }

  /** probeCluster, with the node count of a recent probe over the same client. */
  private async probeWith(
    client: ProbeClient,
    signal?: AbortSignal,
    proxy?: string,
  ): Promise<ProbeResult> {
    const now = this.now();
    const known = this.nodeCounts.get(client);
    const fresh =
      known &&
      now - known.at < (this.options.nodeCountMs ?? DEFAULT_NODE_COUNT_MS);
    const result = await probeCluster(client, {
      timeoutMs: this.options.timeoutMs,
      signal,
      ...(proxy ? { via: `proxy ${proxy}` } : {}),
      ...(fresh ? { knownNodes: known.nodes } : {}),
    });
    if (!result.ok) this.nodeCounts.delete(client);
    else if (!fresh)
      this.nodeCounts.set(client, { nodes: result.nodes, at: now });
    return result;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The client of this exact connection (server, TLS, proxy, credential), made once. */
  private clientFor(
    connection: ArgoConnection,
    clients: Map<string, Reached>,
  ): Reached {
    const now = Date.now();
    if (now - this.sweptAt > CLIENT_IDLE_MS) {
      for (const known of [this.reached, this.proxied]) {
        for (const [key, entry] of known) {
          if (now - entry.usedAt > CLIENT_IDLE_MS) known.delete(key);
        }
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
    const entry = clients.get(key) ?? {
      client: new ArgoProbeClient(connection, this.options.counter),
      usedAt: now,
    };
    entry.usedAt = now;
    clients.set(key, entry);
    return entry;
  }
}
