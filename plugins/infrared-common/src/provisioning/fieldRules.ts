/**
 * The field rules of building a Cluster with OpenTofu (patterns, limits, defaults, the module
 * source, the credentials Secret's name), defined once; rules.ts re-exports them.
 */
import {
  PROVISION_ACTIONS,
  type ClusterTemplateRef,
  type ProvisionSpec,
} from './types';

/**
 * The OpenTofu image when `provision.image` is empty.
 *
 * @public
 */
export const DEFAULT_TOFU_IMAGE = 'ghcr.io/opentofu/opentofu:1.10';

/**
 * The repository of cluster templates when `provision.source` is empty.
 *
 * @public
 */
export const DEFAULT_MODULE_REPOSITORY =
  'git::https://github.com/darkshiftio/infrared-iac-modules';

/**
 * A Secret name: an RFC 1123 subdomain, at most 253 characters.
 *
 * @public
 */
export const SECRET_NAME_PATTERN =
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
/** @public */
export const SECRET_NAME_MAX_LENGTH = 253;

/**
 * An OpenTofu variable name (an HCL identifier).
 *
 * @public
 */
export const VARIABLE_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_-]*$';

/**
 * A template module path, like aws/k3s-node: path segments of letters, digits, `.`, `_`, `-`.
 *
 * @public
 */
export const TEMPLATE_MODULE_PATTERN =
  '^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*$';

/**
 * The rules the Cluster CRD and openapi.yaml state again (a test in infrared-backend compares).
 *
 * @public
 */
export const PROVISION_FIELD_RULES = {
  action: { enum: PROVISION_ACTIONS },
  credentialsSecretName: {
    pattern: SECRET_NAME_PATTERN,
    maxLength: SECRET_NAME_MAX_LENGTH,
  },
  variableName: { pattern: VARIABLE_NAME_PATTERN },
  module: { pattern: TEMPLATE_MODULE_PATTERN },
} as const;

const secretNameRegExp = new RegExp(SECRET_NAME_PATTERN);

/**
 * The prefix of every OpenTofu state Secret (`tfstate-<workspace>-<suffix>`): never credentials.
 *
 * @public
 */
export const TOFU_STATE_SECRET_PREFIX = 'tfstate-';

/**
 * The module source the Job initializes from: `provision.source` when set, else
 * `git::https://github.com/darkshiftio/infrared-iac-modules//<template.module>?ref=<template.version>`
 * (no `?ref` without a version).
 *
 * @public
 */
export function moduleSource(
  template: ClusterTemplateRef,
  provision: Pick<ProvisionSpec, 'source'> = {},
): string {
  if (provision.source) return provision.source;
  const ref = template.version
    ? `?ref=${encodeURIComponent(template.version)}`
    : '';
  return `${DEFAULT_MODULE_REPOSITORY}//${template.module}${ref}`;
}

/**
 * The reason a credentials Secret name is refused, if it is.
 *
 * @public
 */
export function secretNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '')
    return 'provision.credentialsSecretRef.name must be the name of a Secret in the OpenTofu Jobs namespace (infrared-tofu by default)';
  if (name.length > SECRET_NAME_MAX_LENGTH)
    return `provision.credentialsSecretRef.name is ${name.length} characters long; at most ${SECRET_NAME_MAX_LENGTH}`;
  if (!secretNameRegExp.test(name))
    return `provision.credentialsSecretRef.name "${name}" is not a Secret name: lowercase letters, digits, - and ., starting and ending with a letter or digit`;
  if (name.startsWith(TOFU_STATE_SECRET_PREFIX))
    return `provision.credentialsSecretRef.name "${name}" names an OpenTofu state Secret (${TOFU_STATE_SECRET_PREFIX}...), not credentials: a Job never gets another Cluster's state`;
  return undefined;
}
