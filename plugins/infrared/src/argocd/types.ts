/**
 * Argo CD's `v1alpha1ConnectionState`: how its last attempt to reach a cluster went.
 *
 * @public
 */
export interface ArgoCdConnectionState {
  /** `Successful`, `Failed` or `Unknown` (Argo CD's `ConnectionStatus*`), or empty before a first attempt. */
  status?: string;
  message?: string;
  attemptedAt?: string;
}

/**
 * The fields of Argo CD's `v1alpha1Cluster` (an item of `GET /api/v1/clusters`) the panel reads.
 *
 * @public
 */
export interface ArgoCdCluster {
  server?: string;
  name?: string;
  /** Deprecated by Argo CD for `info.connectionState`, which it copies here; read when `info` lacks it. */
  connectionState?: ArgoCdConnectionState;
  info?: { connectionState?: ArgoCdConnectionState };
}

/**
 * Argo CD's API, read through Backstage's proxy.
 *
 * @public
 */
export interface ArgoCdApi {
  /**
   * The proxy endpoint in front of Argo CD's `/api` (config `infrared.argocd.proxyPath`, e.g.
   * `/argocd/api`); undefined when none is configured, and then nothing asks Argo CD.
   */
  readonly proxyPath?: string;
  /** `GET /api/v1/clusters`: every cluster Argo CD knows, with its connection state. */
  listClusters(signal?: AbortSignal): Promise<ArgoCdCluster[]>;
}
