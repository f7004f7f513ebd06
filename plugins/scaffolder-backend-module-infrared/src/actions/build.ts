import {
  createTemplateAction,
  type TemplateAction,
} from '@backstage/plugin-scaffolder-node';
import type {
  BuildClusterActionInput,
  BuildClusterActionOutput,
} from './types';
import type {
  ClusterTemplate,
  RegisterClusterRequest,
} from '@infrared-clusters/plugin-infrared-common';
import type { InfraredApiFor } from '../infraredApi';
import {
  checkRequest,
  clusterFields,
  clusterName,
  definedFields,
} from './fields';

export const BUILD_ACTION_ID = 'infrared:cluster:build';

const examples = [
  {
    description:
      "Build a cluster from the portal's demo template: starts with plan, nothing is created until someone applies it",
    example: `steps:
  - id: build
    name: Plan the cluster
    action: ${BUILD_ACTION_ID}
    input:
      name: \${{ parameters.name }}
      template: local/demo-cluster@v1
      provider: local
  - id: planned
    action: infrared:cluster:wait
    input:
      name: \${{ parameters.name }}
      provisionPhase: Succeeded`,
  },
  {
    description:
      'Build an EKS cluster with variables and the cloud credentials in a Secret of the OpenTofu namespace (default infrared-tofu)',
    example: `steps:
  - id: build
    action: ${BUILD_ACTION_ID}
    input:
      name: prod-eu
      template: acme/eks@v2.1.0
      variables:
        region: eu-west-1
        node_count: "3"
      credentialsSecret: aws-prod-credentials
      flavor: eks
      provider: aws
      region: eu-west-1`,
  },
];

/** `module@version` or `module`, as the register form and GET /v1/provisioning/templates name it. */
const templateKey = (t: Pick<ClusterTemplate, 'module' | 'version'>) =>
  t.version ? `${t.module}@${t.version}` : t.module;

/** The template reference: an offered template's, or `module@version` split for the API to judge. */
function templateRef(template: ClusterTemplate | string): {
  module: string;
  version?: string;
} {
  if (typeof template !== 'string') {
    const { module, version } = template;
    return version ? { module, version } : { module };
  }
  const at = template.lastIndexOf('@');
  return at > 0
    ? { module: template.slice(0, at), version: template.slice(at + 1) }
    : { module: template };
}

/**
 * The body of POST /v1/clusters for a built cluster, as the register form makes it: the offered
 * template's module and version, the variables given, and a template variable called `name`
 * taking the cluster's name unless given.
 */
export function buildRequestBody(
  input: {
    name: string;
    template: string;
    variables?: Record<string, string>;
    credentialsSecret?: string;
    flavor?: string;
    provider?: string;
    region?: string;
  },
  templates: readonly ClusterTemplate[],
): Record<string, unknown> {
  const offered = templates.find(t => templateKey(t) === input.template);
  const variables = { ...input.variables };
  if (offered?.variables.some(v => v.name === 'name') && !variables.name) {
    variables.name = input.name;
  }
  return {
    name: input.name,
    ...definedFields({
      flavor: input.flavor,
      provider: input.provider,
      region: input.region,
    }),
    template: templateRef(offered ?? input.template),
    provision: {
      action: 'plan',
      variables,
      ...(input.credentialsSecret
        ? { credentialsSecretRef: { name: input.credentialsSecret } }
        : {}),
    },
  };
}

/**
 * `infrared:cluster:build`: POST /v1/clusters with a template, as the template's runner. The
 * Cluster starts with plan: the backend runs an OpenTofu plan Job, and apply (billable) stays a
 * human's decision on the cluster's panel.
 *
 * @public
 */
export function createBuildClusterAction(options: {
  infraredApi: InfraredApiFor;
}): TemplateAction<BuildClusterActionInput, BuildClusterActionOutput, 'v2'> {
  return createTemplateAction({
    id: BUILD_ACTION_ID,
    description:
      'Creates a Cluster built with OpenTofu from one of the templates the portal offers (POST /api/infrared/v1/clusters with template and provision), as the user running the template. It starts with plan; apply is confirmed on the cluster panel.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        name: clusterName,
        template: z =>
          z
            .string()
            .min(1)
            .describe(
              'The template, as module@version (or module): one of GET /api/infrared/v1/provisioning/templates',
            ),
        variables: z =>
          z
            .record(z.string())
            .optional()
            .describe(
              "The template's variables, each a string (OpenTofu reads TF_VAR_ values); a variable called name defaults to the cluster's name",
            ),
        credentialsSecret: z =>
          z
            .string()
            .optional()
            .describe(
              "The name of a Secret in the OpenTofu Jobs' namespace (infrared.provisioning.namespace, default infrared-tofu) whose keys become the OpenTofu Job's environment",
            ),
        ...clusterFields,
      },
      output: {
        name: z => z.string().describe("The Cluster's name"),
        template: z => z.string().describe('The template, as module@version'),
      },
    },
    async handler(ctx) {
      const api = options.infraredApi(await ctx.getInitiatorCredentials());
      const templates = await api.listClusterTemplates();
      const body = buildRequestBody(ctx.input, templates);
      const template = templateKey(body.template as ClusterTemplate);
      if (ctx.isDryRun) {
        checkRequest(body, templates);
        ctx.logger.info(
          `dry run: would create Cluster ${ctx.input.name} built from ${template}, starting with plan`,
        );
      } else {
        const cluster = await api.registerCluster(
          body as unknown as RegisterClusterRequest,
        );
        ctx.logger.info(
          `created Cluster ${cluster.name} from ${template}; its OpenTofu plan Job starts now`,
        );
      }
      ctx.output('name', ctx.input.name);
      ctx.output('template', template);
    },
  });
}
