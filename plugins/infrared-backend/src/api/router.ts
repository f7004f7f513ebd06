import type {
  AuditorService,
  BackstageCredentials,
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  InputError,
  NotAllowedError,
  ServiceUnavailableError,
} from '@backstage/errors';
import {
  infraredClusterCreatePermission,
  infraredClusterDeletePermission,
  infraredClusterReadPermission,
  validateClusterName,
  validateRegisterClusterRequest,
  type FieldError,
} from '@internal/plugin-infrared-common';
import {
  AuthorizeResult,
  type BasicPermission,
} from '@backstage/plugin-permission-common';
import express, { type Request } from 'express';
import Router from 'express-promise-router';
import type { ClusterService } from '../clusters';
import { createOpenApiRouter } from '../schema/openapi';
import { jsonBody } from './bodyErrors';

export interface RouterOptions {
  httpAuth: HttpAuthService;
  permissions: PermissionsService;
  auditor?: AuditorService;
  logger: LoggerService;
  /** Undefined when no management cluster is configured: the cluster routes answer 503. */
  clusters?: ClusterService;
  /** Why `clusters` is undefined. */
  unavailable?: string;
}

const ACTIONS: Record<string, string> = {
  [infraredClusterReadPermission.name]: 'read clusters',
  [infraredClusterCreatePermission.name]: 'register clusters',
  [infraredClusterDeletePermission.name]: 'remove clusters',
};

/** 400 naming every field and reason; the list is in `errors` for clients that show it per field. */
export function validationError(errors: FieldError[]): InputError {
  const error = new InputError(
    `invalid request: ${errors
      .map(e => `${e.field}: ${e.message}`)
      .join('; ')}`,
  );
  return Object.assign(error, { errors });
}

/**
 * The REST API, thin: authenticate, authorize, validate, then call ClusterService. Errors are
 * Backstage's (InputError 400, NotAllowedError 403, NotFoundError 404, ConflictError 409), mapped by
 * the default error handler. Request bodies are never logged or echoed.
 *
 * The router is the one generated from src/schema/openapi.yaml (`createOpenApiRouter`), so each
 * route's path, parameters, body and answers are typed by the spec. Its request validator is
 * off: -common's validator, whose rules the spec states (a test keeps them equal), runs after
 * authorization and names each field with its reason, and the token is checked by httpAuth.
 * The body is parsed before it, since its error handler turns every error into a 400 (a body
 * over the limit stays a 413).
 */
export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const { httpAuth, permissions, auditor } = options;
  const router = await createOpenApiRouter({
    middleware: [jsonBody],
    validatorOptions: { validateRequests: false, validateSecurity: false },
  });

  const service = (): ClusterService => {
    if (!options.clusters) {
      throw new ServiceUnavailableError(
        options.unavailable ?? 'the management cluster is not configured',
      );
    }
    return options.clusters;
  };

  async function authorize(
    req: Request,
    permission: BasicPermission,
  ): Promise<BackstageCredentials> {
    const credentials = await httpAuth.credentials(req);
    const [decision] = await permissions.authorize([{ permission }], {
      credentials,
    });
    if (decision.result !== AuthorizeResult.ALLOW) {
      throw new NotAllowedError(
        `only platform admins may ${ACTIONS[permission.name]} (permission ${
          permission.name
        })`,
      );
    }
    return credentials;
  }

  async function audited<T>(
    req: Request,
    eventId: string,
    meta: { name?: string },
    fn: () => Promise<T>,
  ): Promise<T> {
    const event = await auditor?.createEvent({
      eventId,
      severityLevel: 'medium',
      request: req,
      meta: meta.name ? { cluster: meta.name } : {},
    });
    try {
      const result = await fn();
      await event?.success();
      return result;
    } catch (error) {
      await event?.fail({ error: error as Error });
      throw error;
    }
  }

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/v1/clusters', async (req, res) => {
    await authorize(req, infraredClusterReadPermission);
    res.json({ items: await service().list() });
  });

  router.get('/v1/clusters/:name', async (req, res) => {
    await authorize(req, infraredClusterReadPermission);
    res.json(await service().get(req.params.name));
  });

  router.post('/v1/clusters', async (req, res) => {
    await authorize(req, infraredClusterCreatePermission);
    const name =
      typeof req.body?.name === 'string'
        ? req.body.name.slice(0, 63)
        : undefined;
    const view = await audited(req, 'cluster-register', { name }, async () => {
      const validation = validateRegisterClusterRequest(req.body);
      if ('errors' in validation) throw validationError(validation.errors);
      return service().register(validation.value);
    });
    res.status(201).json(view);
  });

  router.delete('/v1/clusters/:name', async (req, res) => {
    await authorize(req, infraredClusterDeletePermission);
    const { name } = req.params;
    await audited(req, 'cluster-remove', { name }, async () => {
      const problem = validateClusterName(name);
      if (problem) throw new InputError(problem);
      await service().remove(name);
    });
    res.status(204).end();
  });

  const outer = Router();
  outer.use(jsonBody);
  outer.use(router);
  return outer;
}
