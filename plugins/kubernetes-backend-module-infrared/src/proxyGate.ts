import type {
  HttpRouterService,
  LoggerService,
  RootConfigService,
} from '@backstage/backend-plugin-api';
import { AsyncLocalStorage } from 'node:async_hooks';

/** Config: open the Kubernetes plugin's proxy to every Infrared cluster. Default false. */
export const PROXY_ALLOW_ALL_KEY = 'infrared.kubernetes.proxy.allowAll';
/** Config: the Infrared clusters (Cluster names) the Kubernetes plugin's proxy may reach. */
export const PROXY_CLUSTERS_KEY = 'infrared.kubernetes.proxy.clusters';

/** The header naming the proxy's cluster (`HEADER_KUBERNETES_CLUSTER` of the Kubernetes backend). */
const CLUSTER_HEADER = 'backstage-kubernetes-cluster';
/**
 * The paths the Kubernetes backend's router sends to its proxy, `router.use('/proxy', ...)`, as
 * Express 4 (path-to-regexp 0.1, `end: false`, case-insensitive, not strict) matches them on the
 * path under the plugin's mount: `/proxy`, `/proxy/`, `/proxy/...`, in any case.
 */
const PROXY_PATH = /^\/proxy\/?(?=\/|$)/i;

/** Which Infrared clusters the Kubernetes plugin's proxy may reach. */
export interface ProxyOptions {
  allowAll: boolean;
  clusters: string[];
}

export function readProxyOptions(config: RootConfigService): ProxyOptions {
  return {
    allowAll: config.getOptionalBoolean(PROXY_ALLOW_ALL_KEY) ?? false,
    clusters: config.getOptionalStringArray(PROXY_CLUSTERS_KEY) ?? [],
  };
}

/** A refusal the Backstage error handler answers with 403 (its `statusCode`), as NotAllowedError. */
export class ProxyRefusedError extends Error {
  readonly name = 'NotAllowedError';
  readonly statusCode = 403;
}

type Handler = Parameters<HttpRouterService['use']>[0];

/** What the gate knows of Infrared's clusters, from the watched caches. */
export interface InfraredClusterNames {
  /** Whether a Cluster resource of that name exists (registered or not). */
  has(name: string): boolean;
  /** The Infrared clusters the Kubernetes plugin is supplied with now. */
  supplied(): Promise<string[]>;
}

/**
 * Keeps the Kubernetes plugin's proxy (`/api/kubernetes/proxy`) away from Infrared's clusters
 * unless config opens it, whatever the permission policy says of `kubernetes.proxy`:
 *
 * - `middleware` runs on the Kubernetes plugin's own router before its proxy (this module's init
 *   runs before the plugin's, and both `use` the same plugin router, in that order) and answers
 *   403 for a request to an Infrared cluster that is not opened;
 * - what it lets through runs in a proxy context, where `refusal` makes the `infrared` auth
 *   strategy refuse the credential of a cluster that is not opened: a second check that does not
 *   depend on the middleware reading the request as the proxy does.
 */
export class ProxyGate {
  private readonly proxyRequest = new AsyncLocalStorage<true>();
  private readonly opened: ReadonlySet<string>;

  constructor(
    private readonly options: ProxyOptions,
    private readonly clusters: InfraredClusterNames,
    private readonly logger: LoggerService,
  ) {
    this.opened = new Set(options.clusters);
  }

  /** Whether the proxy may reach this Infrared cluster. */
  allows(name: string): boolean {
    return this.options.allowAll || this.opened.has(name);
  }

  /** Why a credential for this cluster is refused now, if it is: only inside a proxy request. */
  refusal(name: string): ProxyRefusedError | undefined {
    if (!this.proxyRequest.getStore() || this.allows(name)) return undefined;
    return new ProxyRefusedError(this.closed(name));
  }

  private closed(name: string): string {
    return `infrared: the Kubernetes proxy to cluster ${name} is closed: add ${name} to ${PROXY_CLUSTERS_KEY} (or set ${PROXY_ALLOW_ALL_KEY}: true) to open it`;
  }

  middleware(): Handler {
    return (req, _res, next) => {
      const pathname = (req.url ?? '').split('?')[0];
      if (!PROXY_PATH.test(pathname)) {
        next();
        return;
      }
      this.check(req.headers[CLUSTER_HEADER]).then(
        refused => {
          if (refused) {
            this.logger.info(
              `infrared: refused a Kubernetes proxy request ${req.method} ${pathname} to ${refused.cluster}`,
            );
            next(refused.error);
            return;
          }
          this.proxyRequest.run(true, () => next());
        },
        error => next(error),
      );
    };
  }

  /** The proxy's own choice of cluster: the header's, else the lone cluster when there is one. */
  private async check(
    header: string | string[] | undefined,
  ): Promise<{ cluster: string; error: ProxyRefusedError } | undefined> {
    if (typeof header === 'string' && header.length > 0) {
      if (!this.clusters.has(header) || this.allows(header)) return undefined;
      return {
        cluster: header,
        error: new ProxyRefusedError(this.closed(header)),
      };
    }
    const closed = (await this.clusters.supplied()).filter(
      name => !this.allows(name),
    );
    if (!closed.length) return undefined;
    return {
      cluster: closed.join(', '),
      error: new ProxyRefusedError(
        `infrared: a Kubernetes proxy request must name its cluster (header Backstage-Kubernetes-Cluster) while the proxy to ${closed.join(
          ', ',
        )} is closed (${PROXY_CLUSTERS_KEY}, ${PROXY_ALLOW_ALL_KEY})`,
      ),
    };
  }
}
