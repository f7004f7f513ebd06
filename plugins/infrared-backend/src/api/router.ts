import type express from 'express';
import Router from 'express-promise-router';
import { installationWriteGate } from '../installation';
import { createOpenApiRouter } from '../schema/openapi';
import { jsonBody } from './bodyErrors';
import { clusterArea } from './clusterRoutes';
import { createApiContext, type RouterOptions } from './context';
import { placementArea } from './placementRoutes';
import { provisioningArea } from './provisioningRoutes';
import { scrubErrors } from './scrubErrors';
import { specErrors } from './specErrors';

export type { RouterOptions } from './context';

/**
 * The REST API, thin: authenticate, authorize, validate, then call a service. Errors are
 * Backstage's (InputError 400, NotAllowedError 403, NotFoundError 404, ConflictError 409), mapped by
 * the default error handler. Request bodies are never logged or echoed.
 *
 * A request goes through, in order:
 * 1. the JSON body parser (413 over 1 MiB, 400 for a body that is not UTF-8 JSON) and, for writes,
 *    the installation gate (409, 503);
 * 2. each area's checks: authorization first (401, 403), then -common's rules of the path and
 *    the body, which name each field with its reason (400; 404 for a read of an impossible name);
 * 3. the router generated from src/schema/openapi.yaml (`createOpenApiRouter`), with the spec's
 *    request validation on: a request that breaks openapi.yaml answers 400 and never reaches a
 *    handler. `specErrors` gives its answer today's shape (a field list in `errors`);
 * 4. the handlers, one file per area, which call the services.
 * The spec's validator comes after the checks, not inside them, because the generated router's
 * own error handler turns every error before its handlers into a 400: a 401 or 403 from there
 * would come out as 400, and -common's field list would be lost.
 */
export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const ctx = createApiContext(options);
  const areas = [clusterArea, provisioningArea, placementArea];
  const router = await createOpenApiRouter({
    // the body is parsed by the outer router (express.json does not parse it twice)
    middleware: [jsonBody],
    // httpAuth checks the token, before the spec's validator (step 2)
    validatorOptions: { validateSecurity: false },
  });

  router.get('/health', (_req, res) => {
    res.json({
      status: 'ok',
      ...(options.installation && {
        installation: options.installation.view(),
      }),
    });
  });
  for (const area of areas) area.handlers(ctx, router);

  const outer = Router();
  outer.use(jsonBody);
  if (options.installation) {
    outer.use(installationWriteGate(options.installation, options.httpAuth));
  }
  const checks = Router();
  for (const area of areas) area.checks(ctx, checks);
  outer.use(checks);
  outer.use(router);
  outer.use(specErrors);
  outer.use(scrubErrors);
  return outer;
}
