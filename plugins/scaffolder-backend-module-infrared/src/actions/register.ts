import { InputError } from '@backstage/errors';
import {
  createTemplateAction,
  type TemplateAction,
} from '@backstage/plugin-scaffolder-node';
import type {
  RegisterClusterActionInput,
  RegisterClusterActionOutput,
} from './types';
import type { RegisterClusterRequest } from '@infrared-clusters/plugin-infrared-common';
import type { InfraredApiFor } from '../infraredApi';
import {
  checkRequest,
  clusterFields,
  clusterName,
  definedFields,
} from './fields';

export const REGISTER_ACTION_ID = 'infrared:cluster:register';

const examples = [
  {
    description:
      'Register a cluster from a kubeconfig the form took as a secret (ui:field Secret)',
    example: `steps:
  - id: register
    name: Register the cluster
    action: ${REGISTER_ACTION_ID}
    input:
      name: \${{ parameters.name }}
      flavor: k3s
      provider: local
      region: us-east-1
      kubeconfigSecret: kubeconfig`,
  },
  {
    description: 'Register the management cluster itself',
    example: `steps:
  - id: register
    action: ${REGISTER_ACTION_ID}
    input:
      name: infrared-mgmt
      inCluster: true`,
  },
];

/**
 * `infrared:cluster:register`: POST /v1/clusters as the template's runner. The kubeconfig comes
 * from the task's secrets, so it is in no parameter, step input or log of the task.
 *
 * @public
 */
export function createRegisterClusterAction(options: {
  infraredApi: InfraredApiFor;
}): TemplateAction<
  RegisterClusterActionInput,
  RegisterClusterActionOutput,
  'v2'
> {
  return createTemplateAction({
    id: REGISTER_ACTION_ID,
    description:
      'Registers an existing Kubernetes cluster with Infrared (POST /api/infrared/v1/clusters), as the user running the template: Infrared then writes its Argo CD cluster Secret and gitops file.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        name: clusterName,
        ...clusterFields,
        kubeconfigSecret: z =>
          z
            .string()
            .optional()
            .describe(
              'The task secret holding the kubeconfig file (default: kubeconfig); leave out with inCluster',
            ),
        inCluster: z =>
          z
            .boolean()
            .optional()
            .describe(
              'The management cluster itself, through its own service account',
            ),
      },
      output: {
        name: z => z.string().describe("The Cluster's name"),
        connection: z =>
          z
            .string()
            .describe('How Infrared reaches it: kubeconfig or inCluster'),
      },
    },
    async handler(ctx) {
      const { name, flavor, provider, region, inCluster } = ctx.input;
      const secretName = ctx.input.kubeconfigSecret ?? 'kubeconfig';
      const kubeconfig = inCluster ? undefined : ctx.secrets?.[secretName];
      if (!inCluster && !kubeconfig) {
        throw new InputError(
          `the task has no secret "${secretName}": take the kubeconfig with a secret field (ui:field: Secret) named ${secretName}, or set inCluster: true`,
        );
      }
      const body = {
        name,
        ...definedFields({ flavor, provider, region }),
        ...(inCluster ? { inCluster: true } : { kubeconfig }),
      };
      if (ctx.isDryRun) {
        checkRequest(body);
        ctx.logger.info(
          `dry run: would register Cluster ${name} (${
            inCluster ? 'in-cluster' : 'kubeconfig from the task secret'
          })`,
        );
        ctx.output('name', name);
        ctx.output('connection', inCluster ? 'inCluster' : 'kubeconfig');
        return;
      }
      const api = options.infraredApi(await ctx.getInitiatorCredentials());
      // the API authorizes, then validates: a refused caller learns nothing about the input
      const cluster = await api.registerCluster(
        body as unknown as RegisterClusterRequest,
      );
      ctx.logger.info(
        `registered Cluster ${cluster.name}; Infrared connects to it and registers it in Argo CD`,
      );
      ctx.output('name', cluster.name);
      ctx.output('connection', cluster.connection);
    },
  });
}
