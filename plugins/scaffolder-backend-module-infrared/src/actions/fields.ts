import { InputError } from '@backstage/errors';
import {
  CLUSTER_FIELD_RULES,
  CLUSTER_FLAVORS,
  CLUSTER_PROVIDERS,
  validateRegisterClusterRequest,
  type ClusterTemplate,
  type FieldError,
  type RegisterClusterRequest,
} from '@infrared-clusters/plugin-infrared-common';
import type { TemplateActionOptions } from '@backstage/plugin-scaffolder-node';

/** The zod the scaffolder hands to a schema function (its own copy, `zod/v3`). */
type Zod = Parameters<
  NonNullable<NonNullable<TemplateActionOptions['schema']>['input']>[string]
>[0];

const { name: NAME, region: REGION } = CLUSTER_FIELD_RULES;

/*
 * The input schemas state -common's field rules (CLUSTER_FIELD_RULES, the ones the REST API, the
 * OpenAPI spec and the CRD hold), so the template form and the scaffolder refuse what the API would.
 * The API still validates every request: these only describe it.
 */

export const clusterName = (z: Zod) =>
  z
    .string()
    .max(NAME.maxLength)
    .regex(new RegExp(NAME.pattern))
    .describe(
      `The Cluster's name: lowercase letters, digits and hyphens, at most ${NAME.maxLength} characters`,
    );

export const clusterFields = {
  flavor: (z: Zod) =>
    z.enum(CLUSTER_FLAVORS).optional().describe('The Kubernetes flavor'),
  provider: (z: Zod) =>
    z.enum(CLUSTER_PROVIDERS).optional().describe('Where the cluster runs'),
  region: (z: Zod) =>
    z
      .string()
      .max(REGION.maxLength)
      .regex(new RegExp(REGION.pattern))
      .optional()
      .describe('The region, like us-east-1'),
};

/** The 400 the API would answer, for a dry run: every field and reason, in the API's words. */
export function checkRequest(
  body: Record<string, unknown>,
  templates: readonly ClusterTemplate[] = [],
): RegisterClusterRequest {
  const validation = validateRegisterClusterRequest(body, { templates });
  if ('errors' in validation) throw invalid(validation.errors);
  return validation.value;
}

function invalid(errors: FieldError[]): InputError {
  return new InputError(
    `invalid request: ${errors
      .map(e => `${e.field}: ${e.message}`)
      .join('; ')}`,
  );
}

/** The optional fields that were given, as the request body carries them. */
export function definedFields(
  fields: Record<string, string | undefined>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
}
