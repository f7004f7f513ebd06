import { InputError, NotFoundError } from '@backstage/errors';
import {
  validateClusterName,
  validateNamespaceName,
  validateObjectName,
  validateOrganizationName,
} from '@infrared-clusters/plugin-infrared-common';

type NameRule = (value: unknown, field: string) => string | undefined;

/** The rule of each path parameter, by the name the routes give it. */
export const PATH_NAME_RULES = {
  cluster: validateClusterName,
  org: validateOrganizationName,
  namespace: validateNamespaceName,
  product: validateObjectName,
  release: validateObjectName,
  zone: validateNamespaceName,
} satisfies Record<string, NameRule>;

/**
 * Checks the names a route's path carries, before anything is asked of the API server, so that no
 * `..`, `/` or `%` in a name can reach a Kubernetes path. A name that breaks its rule names nothing
 * that can exist: 404 for a read, 400 for a change; either way the message names the parameter
 * and the reason. `params` maps each parameter's field name to its rule and value.
 */
export function checkPathNames(
  params: Record<string, [keyof typeof PATH_NAME_RULES, string]>,
  change: boolean,
): void {
  const errors = Object.entries(params).flatMap(([field, [rule, value]]) => {
    const message = PATH_NAME_RULES[rule](value, field);
    return message ? [{ field, message }] : [];
  });
  if (!errors.length) return;
  const text = errors.map(e => e.message).join('; ');
  if (change) {
    throw Object.assign(new InputError(`invalid request: ${text}`), {
      errors,
    });
  }
  throw new NotFoundError(`${text}: nothing can have that name`);
}
