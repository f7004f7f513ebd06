import {
  infraredClusterProvisionPermission,
  infraredClusterReadPermission,
  offeredTemplate,
  validateSetProvisionAction,
  type SetProvisionActionRequest,
} from '@infrared-clusters/plugin-infrared-common';
import { check, checked, type ApiArea } from './context';
import { checkPathNames } from './pathNames';
import { validationError } from './validationError';

/** Clusters built with OpenTofu: a cluster's action and last log, and the offered templates. */
export const provisioningArea: ApiArea = {
  checks({ authorize, auditedChecks }, router) {
    router.put(
      '/v1/clusters/:name/provision/action',
      check(async (req, res) => {
        await authorize(req, infraredClusterProvisionPermission);
        const { name } = req.params;
        const meta = { cluster: name };
        await auditedChecks(req, 'cluster-provision-action', meta, () => {
          checkPathNames({ name: ['cluster', name] }, true);
          const validation = validateSetProvisionAction(req.body);
          if ('errors' in validation) throw validationError(validation.errors);
          res.locals.action = validation.value;
        });
      }),
    );
    router.get(
      '/v1/clusters/:name/provision/log',
      check(async req => {
        await authorize(req, infraredClusterReadPermission);
        checkPathNames({ name: ['cluster', req.params.name] }, false);
      }),
    );
    router.get(
      '/v1/provisioning/templates',
      check(async req => {
        await authorize(req, infraredClusterReadPermission);
      }),
    );
  },

  handlers(ctx, router) {
    const { options } = ctx;
    router.put('/v1/clusters/:name/provision/action', async (req, res) => {
      const { name } = req.params;
      const { action, acknowledgeBillable } =
        checked<SetProvisionActionRequest>(res, 'action');
      const view = await ctx.auditedChange(
        req,
        'cluster-provision-action',
        { cluster: name },
        async () => {
          const done = await ctx.provisioning().setAction(name, action);
          return {
            result: done.view,
            meta: { action, acknowledgeBillable, changed: done.changed },
          };
        },
      );
      res.json(view);
    });

    router.get('/v1/clusters/:name/provision/log', async (req, res) => {
      res.json(await ctx.provisioning().log(req.params.name));
    });

    router.get('/v1/provisioning/templates', async (_req, res) => {
      const items = (options.provisioning?.templates() ?? []).map(
        offeredTemplate,
      );
      res.json({
        items,
        runner: options.provisioning?.runner() ?? { ready: true },
      });
    });
  },
};
