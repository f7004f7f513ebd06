import { z } from 'zod';
import { validateClusterName } from '../clusters/name';
import { CLUSTER_FLAVORS, CLUSTER_PROVIDERS } from '../clusters/types';
import { isInClusterServer } from '../kubeconfig/cluster';

const REGION_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function serverProblem(server: string): string | undefined {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return `server "${server}" is not a URL; it must be an https:// URL, like https://203.0.113.10:6443`;
  }
  if (url.protocol !== 'https:' || !url.hostname) {
    return `server "${server}" must be an https:// URL with a host, like https://203.0.113.10:6443`;
  }
  if (isInClusterServer(server)) {
    return `server "${server}" is the in-cluster address: register the management cluster with inCluster: true instead`;
  }
  return undefined;
}

/** The fields of POST /v1/clusters, each with its own rule (the connection rule is separate). */
export const registerClusterFieldsSchema = z
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
      .max(63, 'region must be at most 63 characters')
      .regex(
        REGION_PATTERN,
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
  })
  .strict();

/** The reason a body names both or neither of kubeconfig and inCluster, if it does. */
export function connectionProblem(body: {
  kubeconfig?: unknown;
  inCluster?: unknown;
}): string | undefined {
  const hasKubeconfig =
    body.kubeconfig !== undefined && body.kubeconfig !== null;
  const inCluster = body.inCluster === true;
  if (hasKubeconfig && inCluster) {
    return 'send either kubeconfig or inCluster: true, not both';
  }
  if (!hasKubeconfig && !inCluster) {
    return "send either kubeconfig (the cluster's kubeconfig file) or inCluster: true (the management cluster itself)";
  }
  return undefined;
}

/** The body of POST /v1/clusters, with every rule including the connection rule. */
export const registerClusterRequestSchema =
  registerClusterFieldsSchema.superRefine((body, ctx) => {
    const message = connectionProblem(body);
    if (message)
      ctx.addIssue({ code: 'custom', path: ['kubeconfig'], message });
  });

/** A valid request to register a cluster: exactly one of kubeconfig and inCluster. */
export type RegisterClusterRequest = {
  name: string;
  flavor?: (typeof CLUSTER_FLAVORS)[number];
  provider?: (typeof CLUSTER_PROVIDERS)[number];
  region?: string;
  /** The API server address Argo CD uses, when it differs from the kubeconfig's. */
  server?: string;
} & (
  | { kubeconfig: string; inCluster?: undefined }
  | { inCluster: true; kubeconfig?: undefined }
);
