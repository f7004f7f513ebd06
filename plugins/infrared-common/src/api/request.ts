import { z } from 'zod';
import { validateClusterName } from '../clusters/name';
import { CLUSTER_FIELD_RULES } from '../clusters/rules';
import {
  CLUSTER_FLAVORS,
  CLUSTER_PROVIDERS,
  type ClusterFlavor,
  type ClusterProvider,
} from '../clusters/types';
import {
  displayServer,
  isInClusterServer,
  registrationServerProblem,
} from '../kubeconfig/cluster';
import type { ClusterTemplateRef, ProvisionSpec } from '../provisioning/types';
import type { RegisterClusterRequest as RegisterClusterBody } from '../schema/openapi';

const { region: REGION, server: SERVER } = CLUSTER_FIELD_RULES;
const regionRegExp = new RegExp(REGION.pattern);
const serverRegExp = new RegExp(SERVER.pattern);

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * The server rule: SERVER_PATTERN, as the OpenAPI spec and the CRD state it, then two checks of
 * the API's own that no pattern can state: the host must be one a URL parser takes (not
 * 1.2.3.999, not port 99999), and not the in-cluster address.
 */
function serverProblem(server: string): string | undefined {
  const url = parseUrl(server);
  const shown = displayServer(server);
  if (!url) {
    return `server "${shown}" is not a URL; it must be an https:// URL, like https://203.0.113.10:6443`;
  }
  const registration = registrationServerProblem(url);
  if (registration) return `server "${shown}" ${registration}`;
  if (!serverRegExp.test(server)) {
    return `server "${shown}" must be an https:// URL with a host, an optional port and path and nothing else, like https://203.0.113.10:6443`;
  }
  if (isInClusterServer(server)) {
    return `server "${shown}" is the in-cluster address: register the management cluster with inCluster: true instead`;
  }
  return undefined;
}

/**
 * The fields of POST /v1/clusters as registerClusterFieldsSchema parses them.
 *
 * @public
 */
export type RegisterClusterFields = {
  name: string;
  kubeconfig?: string;
  inCluster?: boolean;
  flavor?: ClusterFlavor;
  provider?: ClusterProvider;
  region?: string;
  server?: string;
  template?: unknown;
  provision?: unknown;
  acknowledgeBillable?: boolean;
};

/**
 * A schema of the register request, typed by name: zod's inferred type would put the fields and
 * unions in an order that depends on how tsc was run (incremental or not), and with it the API report.
 *
 * @public
 */
export type RegisterClusterSchema = z.ZodType<
  RegisterClusterFields,
  z.ZodTypeDef,
  unknown
>;

/**
 * The fields of POST /v1/clusters, each with its own rule (the connection rule is separate).
 *
 * @public
 */
export const registerClusterFieldsSchema: RegisterClusterSchema = z
  .object({
    name: z
      .string({
        required_error: 'name is required',
        invalid_type_error: 'name must be a string',
      })
      .superRefine((name, ctx) => {
        const message = validateClusterName(name);
        if (message) ctx.addIssue({ code: 'custom', message });
      }),
    kubeconfig: z
      .string({
        invalid_type_error:
          'kubeconfig must be a string holding the kubeconfig file',
      })
      .optional(),
    inCluster: z
      .boolean({ invalid_type_error: 'inCluster must be true or left out' })
      .optional(),
    flavor: z
      .enum(CLUSTER_FLAVORS, {
        errorMap: () => ({
          message: `flavor must be one of ${CLUSTER_FLAVORS.join(', ')}`,
        }),
      })
      .optional(),
    provider: z
      .enum(CLUSTER_PROVIDERS, {
        errorMap: () => ({
          message: `provider must be one of ${CLUSTER_PROVIDERS.join(', ')}`,
        }),
      })
      .optional(),
    region: z
      .string({ invalid_type_error: 'region must be a string' })
      .max(
        REGION.maxLength,
        `region must be at most ${REGION.maxLength} characters`,
      )
      .regex(
        regionRegExp,
        'region must be lowercase letters, digits and hyphens, like us-east-1',
      )
      .optional(),
    server: z
      .string({ invalid_type_error: 'server must be a string' })
      .superRefine((server, ctx) => {
        const message = serverProblem(server);
        if (message) ctx.addIssue({ code: 'custom', message });
      })
      .optional(),
    // checked by validateProvisioning (provisioning/rules.ts), with the configured templates
    template: z.unknown().optional(),
    provision: z.unknown().optional(),
    // with provision.action apply or destroy (billableActionProblem, provisioning/billable.ts)
    acknowledgeBillable: z
      .boolean({
        invalid_type_error: 'acknowledgeBillable must be true or false',
      })
      .optional(),
  })
  .strict();

/**
 * The reason a body names both or neither of kubeconfig and inCluster, if it does.
 *
 * @public
 */
export function connectionProblem(body: {
  kubeconfig?: unknown;
  inCluster?: unknown;
  template?: unknown;
  provision?: unknown;
}): string | undefined {
  const hasKubeconfig =
    body.kubeconfig !== undefined && body.kubeconfig !== null;
  const inCluster = body.inCluster === true;
  if (hasKubeconfig && inCluster) {
    return 'send either kubeconfig or inCluster: true, not both';
  }
  const builds = body.template !== undefined || body.provision !== undefined;
  if (!hasKubeconfig && !inCluster && !builds) {
    return "send either kubeconfig (the cluster's kubeconfig file) or inCluster: true (the management cluster itself), or template and provision to build it with OpenTofu";
  }
  return undefined;
}

/**
 * Whether a register request asks for a cluster built with OpenTofu.
 *
 * @public
 */
export function buildsCluster(body: {
  template?: unknown;
  provision?: unknown;
}): boolean {
  return body.template !== undefined || body.provision !== undefined;
}

/**
 * The body of POST /v1/clusters, with every rule including the connection rule.
 *
 * @public
 */
export const registerClusterRequestSchema: RegisterClusterSchema =
  registerClusterFieldsSchema.superRefine((body, ctx) => {
    const message = connectionProblem(body);
    if (message)
      ctx.addIssue({ code: 'custom', path: ['kubeconfig'], message });
  });

/**
 * A valid request to register a cluster: the body openapi.yaml describes (its generated model),
 * with exactly one of kubeconfig and inCluster, or a template and provision without either.
 *
 * @public
 */
export type RegisterClusterRequest = Omit<
  RegisterClusterBody,
  'kubeconfig' | 'inCluster' | 'template' | 'provision' | 'acknowledgeBillable'
> &
  (
    | {
        kubeconfig: string;
        inCluster?: undefined;
        template?: undefined;
        provision?: undefined;
      }
    | {
        inCluster: true;
        kubeconfig?: undefined;
        template?: undefined;
        provision?: undefined;
      }
    | {
        template: ClusterTemplateRef;
        provision: ProvisionSpec;
        kubeconfig?: undefined;
        inCluster?: undefined;
      }
  );
