import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  Observable,
  VersionApi,
  createConfiguration,
  ServerConfiguration,
  type RequestContext,
  type ResponseContext,
} from '@kubernetes/client-node';
import type { KubeconfigAccepted } from '@internal/plugin-infrared-common';
import { RequestCounter } from './counter';

/** Every request is bounded: the Kubernetes API answers in well under this, a dead server never does. */
export const DEFAULT_KUBE_TIMEOUT_MS = 30_000;

export interface KubeClientOptions {
  /** Counts every request this client sends. */
  counter?: RequestCounter;
  /** Upper bound of one request, unless the call passes its own signal. Default 30 s. */
  timeoutMs?: number;
}

/** Per-call options: an abort signal and a Content-Type (for PATCH). */
export interface CallOptions {
  signal?: AbortSignal;
  contentType?: string;
}

/**
 * One API server, reached with one KubeConfig (its current context): the three generated APIs the
 * plugins use, each request counted and bounded in time.
 */
export class KubeClient {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly version: VersionApi;
  /** The API server URL. */
  readonly server: string;
  readonly counter: RequestCounter;
  private readonly timeoutMs: number;

  constructor(kubeConfig: KubeConfig, options: KubeClientOptions = {}) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) {
      throw new Error('the kubeconfig has no current cluster');
    }
    this.server = cluster.server;
    this.counter = options.counter ?? new RequestCounter();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_KUBE_TIMEOUT_MS;
    const counter = this.counter;
    const timeoutMs = this.timeoutMs;
    const configuration = createConfiguration({
      baseServer: new ServerConfiguration(cluster.server, {}),
      authMethods: { default: kubeConfig },
      promiseMiddleware: [
        {
          async pre(context: RequestContext) {
            counter.count(context.getHttpMethod().toString());
            if (!context.getSignal()) {
              context.setSignal(AbortSignal.timeout(timeoutMs));
            }
            return context;
          },
          async post(context: ResponseContext) {
            return context;
          },
        },
      ],
    });
    this.core = new CoreV1Api(configuration);
    this.custom = new CustomObjectsApi(configuration);
    this.version = new VersionApi(configuration);
  }

  /**
   * The `options` argument of a generated API call. (The object-parameter APIs take Observable
   * middleware, unlike the configuration's promise middleware.)
   */
  callOptions(options: CallOptions = {}): any {
    const middleware = [];
    if (options.signal || options.contentType) {
      const { signal, contentType } = options;
      middleware.push({
        pre(context: RequestContext) {
          if (signal) context.setSignal(signal);
          if (contentType) context.setHeaderParam('Content-Type', contentType);
          return new Observable(Promise.resolve(context));
        },
        post(context: ResponseContext) {
          return new Observable(Promise.resolve(context));
        },
      });
    }
    return middleware.length
      ? { middleware, middlewareMergeStrategy: 'append' }
      : undefined;
  }
}

/** A KubeConfig from kubeconfig text (YAML), using its current context. */
export function kubeConfigFromText(text: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  return kc;
}

/** A KubeConfig from a kubeconfig file, using its current context. */
export function kubeConfigFromFile(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

/** The pod's own service account, as a backend running in the management cluster sees it. */
export function kubeConfigInCluster(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromCluster();
  return kc;
}

/** Whether this process runs in a Kubernetes pod (the in-cluster config can be loaded). */
export function isInCluster(env: NodeJS.ProcessEnv = process.env): boolean {
  return !!env.KUBERNETES_SERVICE_HOST && !!env.KUBERNETES_SERVICE_PORT;
}

/**
 * A KubeConfig holding exactly the credential Argo CD gets: built from an inspected kubeconfig
 * (inline data only), never from its text, so a hand-made kubeconfig Secret can't make the backend
 * run an exec plugin or read a file of its own.
 */
export function kubeConfigFromInspection(
  accepted: KubeconfigAccepted,
): KubeConfig {
  const tls = accepted.argoConfig.tlsClientConfig;
  if (accepted.credentialKind === 'exec') {
    throw new Error(
      'an exec credential cannot be used to reach the cluster from the backend',
    );
  }
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    {
      name: 'cluster',
      server: accepted.server,
      caData: tls.caData,
      skipTLSVerify: tls.insecure,
      tlsServerName: tls.serverName,
      proxyUrl: accepted.argoConfig.proxyUrl,
    },
    {
      name: 'user',
      token: accepted.argoConfig.bearerToken,
      certData: tls.certData,
      keyData: tls.keyData,
    },
  );
  return kc;
}
