import { ConflictError, InputError } from '@backstage/errors';
import {
  buildInProgressMessage,
  infraredClusterCreatePermission,
  infraredClusterDeletePermission,
  infraredClusterProvisionPermission,
  infraredClusterReadPermission,
  isBillableAction,
  provisionActionOf,
  readClusterListParams,
  removedZoneLabel,
  validateClusterName,
  validateRegisterClusterRequest,
  type ClusterListParams,
  type RegisterClusterRequest,
} from '@infrared-clusters/plugin-infrared-common';
import { removeClusterWithPlacement } from '../placement';
import { check, checked, type ApiArea } from './context';
import { listClusters } from './listClusters';
import { checkPathNames } from './pathNames';
import { validationError } from './validationError';

/** /v1/clusters: list, read, register and remove Clusters. */
export const clusterArea: ApiArea = {
  checks({ authorize, auditedChecks, options }, router) {
    router.get(
      '/v1/clusters',
      check(async (req, res) => {
        await authorize(req, infraredClusterReadPermission);
        const read = readClusterListParams(req.query);
        if ('errors' in read) throw validationError(read.errors);
        res.locals.list = read.params;
      }),
    );
    router.get(
      '/v1/clusters/:name',
      check(async req => {
        await authorize(req, infraredClusterReadPermission);
        checkPathNames({ name: ['cluster', req.params.name] }, false);
      }),
    );
    router.post(
      '/v1/clusters',
      check(async (req, res) => {
        await authorize(req, infraredClusterCreatePermission);
        // apply or destroy at creation: the action route's permission too, whatever the route
        if (isBillableAction(provisionActionOf(req.body?.provision))) {
          await authorize(req, infraredClusterProvisionPermission);
        }
        const name =
          typeof req.body?.name === 'string'
            ? req.body.name.slice(0, 63)
            : undefined;
        const meta = name ? { cluster: name } : {};
        await auditedChecks(req, 'cluster-register', meta, () => {
          const validation = validateRegisterClusterRequest(
            req.body,
            // the templates, and the images and sources provision may name
            options.provisioning?.validation() ?? { templates: [] },
          );
          if ('errors' in validation) throw validationError(validation.errors);
          res.locals.registration = validation.value;
        });
      }),
    );
    router.delete(
      '/v1/clusters/:name',
      check(async req => {
        await authorize(req, infraredClusterDeletePermission);
        const { name } = req.params;
        await auditedChecks(req, 'cluster-remove', { cluster: name }, () => {
          const problem = validateClusterName(name);
          if (problem) throw new InputError(problem);
        });
      }),
    );
  },

  handlers(ctx, router) {
    const { options } = ctx;
    router.get('/v1/clusters', async (_req, res) => {
      // the query as the checks read it (the spec's validator turns `limit` into a number)
      const query = checked<ClusterListParams>(res, 'list');
      res.json(await listClusters(query, ctx.clusters(), ctx.placement));
    });

    router.get('/v1/clusters/:name', async (req, res) => {
      res.json(await ctx.clusters().get(req.params.name));
    });

    router.post('/v1/clusters', async (req, res) => {
      const registration = checked<RegisterClusterRequest>(res, 'registration');
      const view = await ctx.audited(
        req,
        'cluster-register',
        { name: registration.name },
        async () => {
          const registered = await ctx.clusters().register(registration);
          if (registration.template) {
            options.provisioning?.changed(registered.name);
          }
          return registered;
        },
      );
      res.status(201).json(view);
    });

    router.delete('/v1/clusters/:name', async (req, res) => {
      const { name } = req.params;
      const removal = await ctx.auditedChange(
        req,
        'cluster-remove',
        { cluster: name },
        async () => {
          // a running apply or destroy is never cut short (issue 20.4)
          const build = await options.provisioning?.buildInProgress(name);
          if (build) {
            throw new ConflictError(buildInProgressMessage(name, build));
          }
          const clusters = ctx.clusters();
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
  },
};
