import type {
  AuditorService,
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { ServiceUnavailableError } from '@backstage/errors';
import type express from 'express';
import type { ClusterService } from '../clusters';
import type { InstallationGate, InstallationView } from '../installation';
import type { PlacementService } from '../placement';
import type { ProvisioningService } from '../provisioning';
import type { createOpenApiRouter } from '../schema/openapi';
import { createAuditing } from './auditing';
import { createAuthorization } from './authorization';

export interface RouterOptions {
  httpAuth: HttpAuthService;
  permissions: PermissionsService;
  auditor?: AuditorService;
  logger: LoggerService;
  /** Undefined when no management cluster is configured: the cluster routes answer 503. */
  clusters?: ClusterService;
  /** Why `clusters` is undefined. */
  unavailable?: string;
  /** Org allowlists and zone placement; undefined without the management cluster (503). */
  placement?: PlacementService;
  /**
   * Clusters built with OpenTofu; undefined without the management cluster or with
   * `infrared.provisioning.enabled: false` (503; POST /v1/clusters then offers no template).
   */
  provisioning?: ProvisioningService;
  /**
   * One installation per management cluster: writes answer its refusal (409, 503) while another
   * installation holds the Lease; GET /health shows it. None: no check (tests of the routes).
   */
  installation?: InstallationGate & { view(): InstallationView };
}

/** The router generated from openapi.yaml, typed by its EndpointMap. */
export type ApiRouter = Awaited<ReturnType<typeof createOpenApiRouter>>;

/**
 * One area of the API (clusters, provisioning, placement), in two steps:
 * - `checks`: per route, on a plain router mounted before the spec's validator: authorization
 *   first (401, 403), then -common's rules of the path and the body (400 or 404 naming each
 *   field). What they work out for the handler goes in `res.locals`.
 * - `handlers`: the routes of the generated router, reached only by requests that passed the
 *   checks and openapi.yaml: they call the services.
 */
export interface ApiArea {
  checks(ctx: ApiContext, router: express.Router): void;
  handlers(ctx: ApiContext, router: ApiRouter): void;
}

/** What every area uses: the options, authorization, auditing and the services (503 without). */
export function createApiContext(options: RouterOptions) {
  const needed = <T>(value: T | undefined, why?: string): T => {
    if (!value) {
      throw new ServiceUnavailableError(
        why ??
          options.unavailable ??
          'the management cluster is not configured',
      );
    }
    return value;
  };
  return {
    options,
    ...createAuthorization(options),
    ...createAuditing(options.auditor),
    clusters: () => needed(options.clusters),
    placement: () => needed(options.placement),
    provisioning: () =>
      needed(
        options.provisioning,
        options.unavailable ??
          'building clusters with OpenTofu is turned off (infrared.provisioning.enabled)',
      ),
  };
}

export type ApiContext = ReturnType<typeof createApiContext>;

/**
 * A check run before the spec's validator: the request goes on when `fn` resolves, and its
 * error (401, 403, 400, 404) answers otherwise.
 */
export const check =
  (
    fn: (req: express.Request, res: express.Response) => Promise<void> | void,
  ): express.RequestHandler =>
  (req, res, next) => {
    Promise.resolve()
      .then(() => fn(req, res))
      .then(() => next(), next);
  };

/** What a route's checks worked out for its handler, kept in `res.locals[key]`. */
export const checked = <T>(res: unknown, key: string): T =>
  (res as express.Response).locals[key] as T;
