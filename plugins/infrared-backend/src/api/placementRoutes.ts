import {
  infraredAllowlistUpdatePermission,
  infraredClusterReadPermission,
  validateAllowlistRequest,
  validateSetZoneClusterRequest,
} from '@infrared-clusters/plugin-infrared-common';
import type express from 'express';
import type { PlacementCaller } from '../placement';
import {
  check,
  checked,
  type ApiArea,
  type ApiContext,
  type ApiRouter,
} from './context';
import { checkPathNames } from './pathNames';
import { validationError } from './validationError';

const ALLOWLIST = '/v1/orgs/:org/cluster-allowlist';
const PRODUCT = '/v1/products/:namespace/:name';
const ZONE_CLUSTER = `${PRODUCT}/zones/:zone/cluster`;
const APPROVAL = `${PRODUCT}/releases/:release/zones/:zone/approval`;

/** Who asks, worked out by the checks of the routes whose answer depends on it. */
const callerOf = (res: unknown) => checked<PlacementCaller>(res, 'caller');

/** Reads: orgs, zones, an org's allowlist, a Product's placement. */
function readHandlers(ctx: ApiContext, router: ApiRouter) {
  router.get('/v1/orgs', async (_req, res) => {
    res.json({ items: await ctx.placement().listOrgs() });
  });

  router.get('/v1/zones', async (_req, res) => {
    res.json({ items: await ctx.placement().listZones() });
  });

  router.get('/v1/orgs/:org/cluster-allowlist', async (req, res) => {
    res.json(await ctx.placement().getAllowlist(req.params.org));
  });

  router.get('/v1/products/:namespace/:name/placement', async (req, res) => {
    const { namespace, name } = req.params;
    res.json(
      await ctx.placement().getPlacement(namespace, name, callerOf(res)),
    );
  });
}

/** Changes, audited: an org's allowlist, a zone's cluster, a release's zone approval. */
function changeHandlers(ctx: ApiContext, router: ApiRouter) {
  router.put('/v1/orgs/:org/cluster-allowlist', async (req, res) => {
    const { org } = req.params;
    const clusters = checked<string[]>(res, 'clusters');
    const body = await ctx.auditedChange(
      req,
      'cluster-allowlist-update',
      { org },
      async () => {
        const change = await ctx.placement().replaceAllowlist(org, clusters);
        const { before, after, changed } = change;
        return {
          result: { clusters: after },
          meta: { before, after, changed },
        };
      },
    );
    res.json(body);
  });

  router.put(
    '/v1/products/:namespace/:name/zones/:zone/cluster',
    async (req, res) => {
      const { namespace, name, zone } = req.params;
      const who = callerOf(res);
      const view = await ctx.auditedChange(
        req,
        'zone-cluster-update',
        { product: `${namespace}/${name}`, zone },
        async () => {
          const placement = ctx.placement();
          const cluster = checked<string | null>(res, 'cluster');
          const change = await placement.setZoneCluster(
            namespace,
            name,
            zone,
            cluster,
            who,
          );
          return {
            result: await placement.getPlacement(namespace, name, who),
            meta: { before: change.before ?? '', after: change.after ?? '' },
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
      const view = await ctx.auditedChange(
        req,
        'release-zone-approve',
        { product: `${namespace}/${name}`, release, zone },
        async () => {
          const approval = await ctx
            .placement()
            .approveZone({ namespace, name, release, zone }, callerOf(res));
          const { approvedBy, approvedAt } = approval;
          return { result: approval, meta: { approvedBy, approvedAt } };
        },
      );
      res.json(view);
    },
  );
}

/**
 * Org allowlists, zones, a Product's placement, a zone's cluster and a release's zone approval.
 * The last two are decided by the placement service (org admin or platform admin): their checks
 * authenticate the caller, and the service answers 403.
 */
export const placementArea: ApiArea = {
  checks({ authorize, auditedChecks, caller }, router) {
    const read = (req: express.Request) =>
      authorize(req, infraredClusterReadPermission).then(() => undefined);
    router.get('/v1/orgs', check(read));
    router.get('/v1/zones', check(read));
    router.get(
      ALLOWLIST,
      check(async req => {
        await read(req);
        checkPathNames({ org: ['org', req.params.org] }, false);
      }),
    );
    router.put(
      ALLOWLIST,
      check(async (req, res) => {
        await authorize(req, infraredAllowlistUpdatePermission);
        const { org } = req.params;
        await auditedChecks(req, 'cluster-allowlist-update', { org }, () => {
          checkPathNames({ org: ['org', org] }, true);
          const validation = validateAllowlistRequest(req.body);
          if ('errors' in validation) throw validationError(validation.errors);
          res.locals.clusters = validation.value.clusters;
        });
      }),
    );
    router.get(
      `${PRODUCT}/placement`,
      check(async (req, res) => {
        await read(req);
        const { namespace, name } = req.params;
        checkPathNames(
          { namespace: ['namespace', namespace], name: ['product', name] },
          false,
        );
        res.locals.caller = await caller(req);
      }),
    );
    router.put(
      ZONE_CLUSTER,
      check(async (req, res) => {
        res.locals.caller = await caller(req);
        const { namespace, name, zone } = req.params;
        const meta = { product: `${namespace}/${name}`, zone };
        await auditedChecks(req, 'zone-cluster-update', meta, () => {
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
          res.locals.cluster = validation.value.cluster || null;
        });
      }),
    );
    router.post(
      APPROVAL,
      check(async (req, res) => {
        res.locals.caller = await caller(req);
        const { namespace, name, release, zone } = req.params;
        const meta = { product: `${namespace}/${name}`, release, zone };
        await auditedChecks(req, 'release-zone-approve', meta, () =>
          checkPathNames(
            {
              namespace: ['namespace', namespace],
              name: ['product', name],
              release: ['release', release],
              zone: ['zone', zone],
            },
            true,
          ),
        );
      }),
    );
  },

  handlers(ctx, router) {
    readHandlers(ctx, router);
    changeHandlers(ctx, router);
  },
};
