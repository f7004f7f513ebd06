import type {
  AuditorService,
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  ConflictError,
  InputError,
  ServiceUnavailableError,
} from '@backstage/errors';
import {
  buildInProgressMessage,
  infraredAllowlistUpdatePermission,
  infraredClusterCreatePermission,
  infraredClusterDeletePermission,
  infraredClusterProvisionPermission,
  infraredClusterReadPermission,
  isBillableAction,
  offeredTemplate,
  provisionActionOf,
  removedZoneLabel,
  validateAllowlistRequest,
  validateSetProvisionAction,
  validateClusterName,
  validateRegisterClusterRequest,
  validateSetZoneClusterRequest,
} from '@infrared-clusters/plugin-infrared-common';
import express from 'express';
import Router from 'express-promise-router';
import type { ClusterService } from '../clusters';
import {
  installationWriteGate,
  type InstallationGate,
  type InstallationView,
} from '../installation';
import {
  removeClusterWithPlacement,
  type PlacementService,
} from '../placement';
import type { ProvisioningService } from '../provisioning';
import { createOpenApiRouter } from '../schema/openapi';
import { createAuditing } from './auditing';
import { createAuthorization } from './authorization';
import { jsonBody } from './bodyErrors';
import { listClusters } from './listClusters';
import { validationError } from './validationError';
import { checkPathNames } from './pathNames';
import { scrubErrors } from './scrubErrors';

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
  const { authorize, caller } = createAuthorization(options);
  const { audited, auditedChange } = createAuditing(options.auditor);
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

  const placement = (): PlacementService => {
    if (!options.placement) {
      throw new ServiceUnavailableError(
        options.unavailable ?? 'the management cluster is not configured',
      );
    }
    return options.placement;
  };

  router.get('/health', (_req, res) => {
    res.json({
      status: 'ok',
      ...(options.installation && {
        installation: options.installation.view(),
      }),
    });
  });

  router.get('/v1/clusters', async (req, res) => {
    // the generated type of the query is the spec's; what arrives is express's, read by listClusters
    const request = req as unknown as express.Request;
    await authorize(request, infraredClusterReadPermission);
    res.json(await listClusters(request.query, service(), placement));
  });

  router.get('/v1/clusters/:name', async (req, res) => {
    await authorize(req, infraredClusterReadPermission);
    checkPathNames({ name: ['cluster', req.params.name] }, false);
    res.json(await service().get(req.params.name));
  });

  router.post('/v1/clusters', async (req, res) => {
    await authorize(req, infraredClusterCreatePermission);
    // apply or destroy at creation: the action route's permission too, whatever the route
    if (isBillableAction(provisionActionOf(req.body?.provision))) {
      await authorize(req, infraredClusterProvisionPermission);
    }
    const name =
      typeof req.body?.name === 'string'
        ? req.body.name.slice(0, 63)
        : undefined;
    const view = await audited(req, 'cluster-register', { name }, async () => {
      const validation = validateRegisterClusterRequest(
        req.body,
        // the templates, and the images and sources provision may name
        options.provisioning?.validation() ?? { templates: [] },
      );
      if ('errors' in validation) throw validationError(validation.errors);
      const registered = await service().register(validation.value);
      if (validation.value.template) {
        options.provisioning?.changed(registered.name);
      }
      return registered;
    });
    res.status(201).json(view);
  });

  const provisioning = (): ProvisioningService => {
    if (!options.provisioning) {
      throw new ServiceUnavailableError(
        options.unavailable ??
          'building clusters with OpenTofu is turned off (infrared.provisioning.enabled)',
      );
    }
    return options.provisioning;
  };

  router.put('/v1/clusters/:name/provision/action', async (req, res) => {
    await authorize(req, infraredClusterProvisionPermission);
    const { name } = req.params;
    const view = await auditedChange(
      req,
      'cluster-provision-action',
      { cluster: name },
      async () => {
        checkPathNames({ name: ['cluster', name] }, true);
        const validation = validateSetProvisionAction(req.body);
        if ('errors' in validation) throw validationError(validation.errors);
        const { action, acknowledgeBillable } = validation.value;
        const done = await provisioning().setAction(name, action);
        return {
          result: done.view,
          meta: { action, acknowledgeBillable, changed: done.changed },
        };
      },
    );
    res.json(view);
  });

  router.get('/v1/clusters/:name/provision/log', async (req, res) => {
    await authorize(req, infraredClusterReadPermission);
    checkPathNames({ name: ['cluster', req.params.name] }, false);
    res.json(await provisioning().log(req.params.name));
  });

  router.get('/v1/provisioning/templates', async (req, res) => {
    await authorize(req, infraredClusterReadPermission);
    const items = (options.provisioning?.templates() ?? []).map(
      offeredTemplate,
    );
    res.json({
      items,
      runner: options.provisioning?.runner() ?? { ready: true },
    });
  });

  router.delete('/v1/clusters/:name', async (req, res) => {
    await authorize(req, infraredClusterDeletePermission);
    const { name } = req.params;
    const removal = await auditedChange(
      req,
      'cluster-remove',
      { cluster: name },
      async () => {
        const problem = validateClusterName(name);
        if (problem) throw new InputError(problem);
        // a running apply or destroy is never cut short (issue 20.4)
        const build = await options.provisioning?.buildInProgress(name);
        if (build) throw new ConflictError(buildInProgressMessage(name, build));
        const clusters = service();
        const done = await removeClusterWithPlacement(
          { remove: n => clusters.remove(n), placement: options.placement },
          name,
        );
        return {
          result: done,
          meta: {
            zones: done.zones.map(removedZoneLabel),
            allowlists: done.allowlists,
          },
        };
      },
    );
    res.json(removal);
  });

  router.get('/v1/orgs', async (req, res) => {
    await authorize(req, infraredClusterReadPermission);
    res.json({ items: await placement().listOrgs() });
  });

  router.get('/v1/orgs/:org/cluster-allowlist', async (req, res) => {
    await authorize(req, infraredClusterReadPermission);
    checkPathNames({ org: ['org', req.params.org] }, false);
    res.json(await placement().getAllowlist(req.params.org));
  });

  router.put('/v1/orgs/:org/cluster-allowlist', async (req, res) => {
    await authorize(req, infraredAllowlistUpdatePermission);
    const { org } = req.params;
    const body = await auditedChange(
      req,
      'cluster-allowlist-update',
      { org },
      async () => {
        checkPathNames({ org: ['org', org] }, true);
        const validation = validateAllowlistRequest(req.body);
        if ('errors' in validation) throw validationError(validation.errors);
        const change = await placement().replaceAllowlist(
          org,
          validation.value.clusters,
        );
        return {
          result: { clusters: change.after },
          meta: {
            before: change.before,
            after: change.after,
            changed: change.changed,
          },
        };
      },
    );
    res.json(body);
  });

  router.get('/v1/zones', async (req, res) => {
    await authorize(req, infraredClusterReadPermission);
    res.json({ items: await placement().listZones() });
  });

  router.get('/v1/products/:namespace/:name/placement', async (req, res) => {
    await authorize(req, infraredClusterReadPermission);
    const { namespace, name } = req.params;
    checkPathNames(
      { namespace: ['namespace', namespace], name: ['product', name] },
      false,
    );
    res.json(
      await placement().getPlacement(namespace, name, await caller(req)),
    );
  });

  router.put(
    '/v1/products/:namespace/:name/zones/:zone/cluster',
    async (req, res) => {
      const { namespace, name, zone } = req.params;
      const who = await caller(req);
      const view = await auditedChange(
        req,
        'zone-cluster-update',
        { product: `${namespace}/${name}`, zone },
        async () => {
          checkPathNames(
            {
              namespace: ['namespace', namespace],
              name: ['product', name],
              zone: ['zone', zone],
            },
            true,
          );
          const validation = validateSetZoneClusterRequest(req.body);
          if ('errors' in validation) throw validationError(validation.errors);
          const change = await placement().setZoneCluster(
            namespace,
            name,
            zone,
            validation.value.cluster || null,
            who,
          );
          return {
            result: await placement().getPlacement(namespace, name, who),
            meta: {
              before: change.before ?? '',
              after: change.after ?? '',
            },
          };
        },
      );
      res.json(view);
    },
  );

  router.post(
    '/v1/products/:namespace/:name/releases/:release/zones/:zone/approval',
    async (req, res) => {
      const { namespace, name, release, zone } = req.params;
      const who = await caller(req);
      const view = await auditedChange(
        req,
        'release-zone-approve',
        { product: `${namespace}/${name}`, release, zone },
        async () => {
          checkPathNames(
            {
              namespace: ['namespace', namespace],
              name: ['product', name],
              release: ['release', release],
              zone: ['zone', zone],
            },
            true,
          );
          const approval = await placement().approveZone(
            { namespace, name, release, zone },
            who,
          );
          return {
            result: approval,
            meta: {
              approvedBy: approval.approvedBy,
              approvedAt: approval.approvedAt,
            },
          };
        },
      );
      res.json(view);
    },
  );

  const outer = Router();
  outer.use(jsonBody);
  if (options.installation) {
    outer.use(installationWriteGate(options.installation, options.httpAuth));
  }
  outer.use(router);
  outer.use(scrubErrors);
  return outer;
}
