import {
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  Observable,
  VersionApi,
  createConfiguration,
  ServerConfiguration,
  type Configuration,
  type HttpMethod,
  type RequestContext,
  type ResponseContext,
  type SecurityAuthentication,
} from '@kubernetes/client-node';
import { RequestCounter } from './counter';
import { KubeApiError } from './errors';
import { reusingConnections } from './keepAlive';
import { KeptGets } from './keptGet';
import { lightGet } from './lightGet';
import {
  kubeAccessOf,
  kubeConfigFromAccess,
  withCurrentContext,
  type KubeAccess,
} from './kubeconfig';

/**
 * Every request is bounded: the Kubernetes API answers in well under this, a dead server never does.
 *
 * @public
 */
export const DEFAULT_KUBE_TIMEOUT_MS = 30_000;

/** @public */
export interface KubeClientOptions {
  /** Counts every request this client sends. */
  counter?: RequestCounter;
  /** Upper bound of one request, unless the call passes its own signal. Default 30 s. */
  timeoutMs?: number;
  /** Authenticates each request (headers and agent) instead of the KubeConfig, which still names the server. */
  authentication?: SecurityAuthentication;
}

/**
 * Per-call options: an abort signal, a Content-Type (for PATCH) and an Accept header.
 *
 * @public
 */
export interface CallOptions {
  signal?: AbortSignal;
  contentType?: string;
  accept?: string;
}

/**
 * The answer of a request by path: the HTTP status and the body (parsed when it is JSON).
 *
 * @public
 */
export interface KubeResponse<T = any> {
  status: number;
  body: T;
}

/**
 * One API server, reached with one KubeConfig (its current context): the generated APIs the
 * plugins use, and requests by path (`request`, `must`, `createIfAbsent`) for what no typed API
 * covers (CRDs, readiness, test set-up); each request counted and bounded in time.
 *
 * @public
 */
export class KubeClient {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly version: VersionApi;
  /** Jobs (OpenTofu provisioning). */
  readonly batch: BatchV1Api;
  /** The API server URL. */
  readonly server: string;
  readonly counter: RequestCounter;
  private readonly timeoutMs: number;
  private readonly configuration: Configuration;
  private readonly kept = new KeptGets(path =>
    this.authorizedContext('GET', path),
  );

  /** A client for a kubeconfig's text (its current context, else its first). */
  static fromKubeconfig(text: string, options?: KubeClientOptions): KubeClient {
    return new KubeClient(
      withCurrentContext(kubeConfigFromText(text)),
      options,
    );
  }

  /** A client for one identity given as inline data. */
  static fromAccess(access: KubeAccess, options?: KubeClientOptions) {
    return new KubeClient(kubeConfigFromAccess(access), options);
  }

  constructor(
    readonly kubeConfig: KubeConfig,
    options: KubeClientOptions = {},
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) {
      throw new Error('the kubeconfig has no current cluster');
    }
    this.server = cluster.server;
    this.counter = options.counter ?? new RequestCounter();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_KUBE_TIMEOUT_MS;
    const counter = this.counter;
    const timeoutMs = this.timeoutMs;
    const configuration = (this.configuration = createConfiguration({
      baseServer: new ServerConfiguration(cluster.server, {}),
      // one keep-alive connection pool per client, not a TLS handshake per request
      authMethods: {
        default: reusingConnections(options.authentication ?? kubeConfig),
      },
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
    }));
    this.core = new CoreV1Api(configuration);
    this.custom = new CustomObjectsApi(configuration);
    this.version = new VersionApi(configuration);
    this.batch = new BatchV1Api(configuration);
  }

  /**
   * The `options` argument of a generated API call. (The object-parameter APIs take Observable
   * middleware, unlike the configuration's promise middleware.)
   */
  callOptions(options: CallOptions = {}): any {
    const middleware = [];
    if (options.signal || options.contentType || options.accept) {
      const { signal, contentType, accept } = options;
      middleware.push({
        pre(context: RequestContext) {
          if (signal) context.setSignal(signal);
          if (contentType) context.setHeaderParam('Content-Type', contentType);
          if (accept) context.setHeaderParam('Accept', accept);
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

  /** The identity this client uses, as inline data (the kubeconfig's current context). */
  get access(): KubeAccess {
    return kubeAccessOf(this.kubeConfig);
  }

  /**
   * A request by path (`/api/v1/namespaces`, `/readyz`), through the same configuration as the
   * generated APIs: credentials, counter, time bound. Any HTTP status resolves; a request that got
   * no answer rejects. A string body is sent as it is, anything else as JSON.
   */
  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
    timeoutMs = this.timeoutMs,
  ): Promise<KubeResponse<T>> {
    const { httpApi, middleware } = this.configuration;
    let context = await this.authorizedContext(method, path);
    if (body !== undefined) {
      context.setHeaderParam('Content-Type', contentType);
      context.setBody(typeof body === 'string' ? body : JSON.stringify(body));
    }
    context.setSignal(AbortSignal.timeout(timeoutMs));
    for (const m of middleware) context = await m.pre(context).toPromise();
    let response = await httpApi.send(context).toPromise();
    for (const m of [...middleware].reverse()) {
      response = await m.post(response).toPromise();
    }
    const text = await response.body.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // plain text answers such as /readyz
    }
    return { status: response.httpStatusCode, body: parsed };
  }

  /**
   * A GET of JSON by path over Node's http(s) with this client's credentials and agent, counted:
   * for small, frequent reads (the probe). A non-2xx status rejects with a LightGetStatusError.
   */
  async getLight<T = any>(
    path: string,
    signal: AbortSignal = AbortSignal.timeout(this.timeoutMs),
    options: { accept?: string; maxBytes?: number } = {},
  ): Promise<T> {
    const context = await this.authorizedContext('GET', path);
    if (options.accept) context.setHeaderParam('Accept', options.accept);
    this.counter.count('GET');
    return lightGet<T>(context, signal, options.maxBytes);
  }

  /**
   * getLight over one connection kept open for this client's frequent small reads (the probe's):
   * an undici Client (not Node's http client), the credential headers
   * renewed every 5 minutes and after a 401 (KeptGets). Through a proxy agent it is getLight.
   */
  async getKept<T = any>(
    path: string,
    signal: AbortSignal = AbortSignal.timeout(this.timeoutMs),
    options: { maxBytes?: number } = {},
  ): Promise<T> {
    this.counter.count('GET');
    const kept = await this.kept.get<T>(path, signal, options.maxBytes);
    if (kept) return kept.answer;
    const context = await this.authorizedContext('GET', path);
    return lightGet<T>(context, signal, options.maxBytes);
  }

  private async authorizedContext(method: string, path: string) {
    const { baseServer, authMethods } = this.configuration;
    const context = baseServer.makeRequestContext(
      path,
      method.toUpperCase() as HttpMethod,
    );
    context.setHeaderParam('Accept', 'application/json');
    await authMethods.default?.applySecurityAuthentication(context);
    return context;
  }

  /**
   * Like `request`, but a status other than 2xx (or one listed in `ok`) throws a KubeApiError with
   * the code, the Status reason and `<METHOD> <path> -> <status>: <message>`.
   */
  async must<T = any>(
    method: string,
    path: string,
    body?: unknown,
    ok: number[] = [],
    contentType?: string,
  ): Promise<KubeResponse<T>> {
    const res = await this.request<T>(method, path, body, contentType);
    if ((res.status < 200 || res.status > 299) && !ok.includes(res.status)) {
      const answer: any = res.body;
      const message = typeof answer === 'object' ? answer?.message : answer;
      const reason =
        typeof answer?.reason === 'string'
          ? answer.reason
          : `Http${res.status}`;
      throw new KubeApiError(
        res.status,
        reason,
        `${method} ${path} -> ${res.status}: ${message}`,
      );
    }
    return res;
  }

  /** Creates an object; an existing one (409) is left as it is. */
  createIfAbsent(path: string, obj: unknown): Promise<KubeResponse> {
    return this.must('POST', path, obj, [409]);
  }
}

/**
 * A KubeConfig from kubeconfig text (YAML), using its current context.
 *
 * @public
 */
export function kubeConfigFromText(text: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  return kc;
}

/**
 * A KubeConfig from a kubeconfig file, using its current context.
 *
 * @public
 */
export function kubeConfigFromFile(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

/**
 * The pod's own service account, as a backend running in the management cluster sees it.
 *
 * @public
 */
export function kubeConfigInCluster(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromCluster();
  return kc;
}

/**
 * Whether this process runs in a Kubernetes pod (the in-cluster config can be loaded).
 *
 * @public
 */
export function isInCluster(env: NodeJS.ProcessEnv = process.env): boolean {
  return !!env.KUBERNETES_SERVICE_HOST && !!env.KUBERNETES_SERVICE_PORT;
}
