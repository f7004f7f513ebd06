/**
 * The rules of building a Cluster with OpenTofu, defined once: the API (POST /v1/clusters and the
 * action route), the register form and the backend's provisioning all use them.
 */
import type { FieldError } from '../fieldErrors';
import { billableActionProblem } from './billable';
import {
  PROVISION_ACTIONS,
  TEMPLATE_VARIABLE_TYPES,
  type ClusterTemplate,
  type ClusterTemplateRef,
  type ProvisionAction,
  type ProvisionSpec,
  type TemplateVariable,
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
const variableNameRegExp = new RegExp(VARIABLE_NAME_PATTERN);
const moduleRegExp = new RegExp(TEMPLATE_MODULE_PATTERN);

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
 * The action a spec asks for: `plan` unless it says otherwise.
 *
 * @public
 */
export function provisionAction(
  provision: Pick<ProvisionSpec, 'action'> | undefined,
): ProvisionAction {
  return provision?.action ?? 'plan';
}

/**
 * Whether a value is sent as JSON (a list or an object) rather than as a plain string.
 *
 * @public
 */
export function isJsonVariable(value: string): boolean {
  return value.startsWith('[') || value.startsWith('{');
}

/**
 * A variable's value as OpenTofu reads it from `TF_VAR_<name>`: a value that starts with `[` or `{`
 * is JSON (re-serialized, so it is one line and valid), anything else the string itself.
 *
 * @public
 */
export function encodeVariable(
  value: string,
): { value: string } | { error: string } {
  if (!isJsonVariable(value)) return { value };
  try {
    return { value: JSON.stringify(JSON.parse(value)) };
  } catch (e) {
    return {
      error: `starts with ${
        value[0]
      } so it is passed as JSON, but it is not valid JSON (${
        (e as Error).message
      })`,
    };
  }
}

/** The problem of one value against its declared type, if any. */
function typeProblem(variable: TemplateVariable, value: string) {
  switch (variable.type) {
    case 'number':
      return value.trim() !== '' && Number.isFinite(Number(value))
        ? undefined
        : `must be a number, like 3`;
    case 'bool':
      return value === 'true' || value === 'false'
        ? undefined
        : 'must be true or false';
    case 'list':
      return value.startsWith('[')
        ? undefined
        : 'must be a JSON list, like ["a", "b"]';
    case 'map':
    case 'object':
      return value.startsWith('{')
        ? undefined
        : 'must be a JSON object, like {"key": "value"}';
    default:
      return undefined;
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The variables' own rules, without a template: an object whose keys are variable names and whose
 * values are strings, JSON where they start with `[` or `{`.
 *
 * @public
 */
export function validateVariables(
  variables: unknown,
  field = 'provision.variables',
): FieldError[] {
  if (variables === undefined) return [];
  if (!isObject(variables)) {
    return [
      {
        field,
        message: `${field} must be an object of strings, like {"region": "us-east-1"}`,
      },
    ];
  }
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(variables)) {
    const at = `${field}.${name}`;
    if (!variableNameRegExp.test(name)) {
      errors.push({
        field: at,
        message: `"${name}" is not a variable name: letters, digits, _ and -, starting with a letter or _`,
      });
    }
    if (typeof value !== 'string') {
      errors.push({
        field: at,
        message: `${at} must be a string (a list or object as JSON text), not ${kindOf(
          value,
        )}`,
      });
      continue;
    }
    const encoded = encodeVariable(value);
    if ('error' in encoded)
      errors.push({ field: at, message: `${at} ${encoded.error}` });
  }
  return errors;
}

/**
 * The template a request names, from the configured ones.
 *
 * @public
 */
export function findTemplate(
  templates: readonly ClusterTemplate[],
  ref: ClusterTemplateRef,
): ClusterTemplate | undefined {
  return templates.find(
    t => t.module === ref.module && (t.version ?? '') === (ref.version ?? ''),
  );
}

/**
 * A template's variables with the defaults filled in, checked against the declared ones.
 *
 * @public
 */
export function validateTemplateVariables(
  template: ClusterTemplate,
  variables: Record<string, string>,
  field = 'provision.variables',
): FieldError[] {
  const errors: FieldError[] = [];
  const declared = new Map(template.variables.map(v => [v.name, v]));
  for (const name of Object.keys(variables)) {
    if (declared.get(name)?.internal) {
      errors.push({
        field: `${field}.${name}`,
        message: `${field}.${name} is internal to template ${template.module}: the platform sets it, a request may not`,
      });
    } else if (!declared.has(name)) {
      errors.push({
        field: `${field}.${name}`,
        message: `template ${
          template.module
        } has no variable "${name}"; it takes ${
          template.variables
            .filter(v => !v.internal)
            .map(v => v.name)
            .join(', ') || 'none'
        }`,
      });
    }
  }
  for (const variable of template.variables) {
    const value = variables[variable.name] ?? variable.default;
    const at = `${field}.${variable.name}`;
    if (value === undefined) {
      errors.push({
        field: at,
        message: `${at} is required by template ${template.module}`,
      });
      continue;
    }
    if (typeof value !== 'string') continue; // reported by validateVariables
    const problem = typeProblem(variable, value);
    if (problem) errors.push({ field: at, message: `${at} ${problem}` });
  }
  return errors;
}

/**
 * What `validateProvisioning` checks a template and provision against.
 *
 * @public
 */
export interface ProvisioningContext {
  /** The templates the portal offers; a request naming another is refused. */
  templates?: readonly ClusterTemplate[];
  /** The Cluster's type; provision on the management cluster is refused. */
  type?: string;
  /** Whether the request also names a connection (kubeconfig or inCluster). */
  hasConnection?: boolean;
}

/**
 * Every rule of `template` and `provision` in a request: the template is one the portal offers,
 * the variables are an object of strings that fit the template, the action is plan, apply or
 * destroy, the credentials Secret name is a valid name, not on a management cluster, and not
 * together with a connection (a built cluster gets its connection when the apply succeeds).
 * Reports every problem, each naming its field.
 *
 * @public
 */
export function validateProvisioning(
  input: { template?: unknown; provision?: unknown },
  context: ProvisioningContext = {},
): FieldError[] {
  const { template, provision } = input;
  if (template === undefined && provision === undefined) return [];
  const errors: FieldError[] = [];
  if (context.hasConnection) {
    errors.push({
      field: 'template',
      message:
        'a cluster built with OpenTofu gets its connection when the apply succeeds: send template and provision without kubeconfig or inCluster',
    });
  }
  if (context.type === 'management') {
    errors.push({
      field: 'provision',
      message:
        'the management cluster is not built by Infrared: provision is only for workload clusters',
    });
  }
  let templateRef: ClusterTemplateRef | undefined;
  if (template === undefined) {
    errors.push({
      field: 'template',
      message: 'provision needs a template ({"module": ..., "version": ...})',
    });
  } else if (!isObject(template)) {
    errors.push({
      field: 'template',
      message: 'template must be an object {"module": ..., "version": ...}',
    });
  } else {
    for (const key of Object.keys(template)) {
      if (key !== 'module' && key !== 'version')
        errors.push({
          field: `template.${key}`,
          message: `unknown field "template.${key}": template takes module and version`,
        });
    }
    if (
      typeof template.module !== 'string' ||
      !moduleRegExp.test(template.module)
    ) {
      errors.push({
        field: 'template.module',
        message: 'template.module must be a module path like aws/k3s-node',
      });
    } else if (
      template.version !== undefined &&
      typeof template.version !== 'string'
    ) {
      errors.push({
        field: 'template.version',
        message: 'template.version must be a string like v0.2.3',
      });
    } else {
      templateRef = {
        module: template.module,
        version: template.version as string | undefined,
      };
    }
  }
  const spec: Record<string, unknown> =
    provision === undefined ? {} : (provision as any);
  if (provision !== undefined && !isObject(provision)) {
    errors.push({ field: 'provision', message: 'provision must be an object' });
    return errors;
  }
  const known = [
    'action',
    'credentialsSecretRef',
    'variables',
    'image',
    'source',
    'cloudAccount',
  ];
  for (const key of Object.keys(spec)) {
    if (!known.includes(key))
      errors.push({
        field: `provision.${key}`,
        message: `unknown field "provision.${key}": provision takes ${known.join(
          ', ',
        )}`,
      });
  }
  if (
    spec.action !== undefined &&
    !PROVISION_ACTIONS.includes(spec.action as ProvisionAction)
  ) {
    errors.push({
      field: 'provision.action',
      message: `provision.action must be one of ${PROVISION_ACTIONS.join(
        ', ',
      )}, not ${JSON.stringify(spec.action)}`,
    });
  }
  const credentials = spec.credentialsSecretRef;
  if (credentials !== undefined) {
    const name = isObject(credentials) ? credentials.name : undefined;
    if (
      !isObject(credentials) ||
      Object.keys(credentials).some(k => k !== 'name')
    ) {
      errors.push({
        field: 'provision.credentialsSecretRef',
        message:
          'provision.credentialsSecretRef must be {"name": <Secret in the OpenTofu Jobs namespace, infrared-tofu by default>}; only the name is read',
      });
    } else {
      const problem = secretNameProblem(name);
      if (problem)
        errors.push({
          field: 'provision.credentialsSecretRef.name',
          message: problem,
        });
    }
  }
  for (const key of ['image', 'source', 'cloudAccount'] as const) {
    if (spec[key] !== undefined && typeof spec[key] !== 'string')
      errors.push({
        field: `provision.${key}`,
        message: `provision.${key} must be a string`,
      });
  }
  const variableErrors = validateVariables(spec.variables);
  errors.push(...variableErrors);
  if (templateRef && context.templates) {
    const found = findTemplate(context.templates, templateRef);
    if (!found) {
      const offered = context.templates.map(t =>
        t.version ? `${t.module}@${t.version}` : t.module,
      );
      errors.push({
        field: 'template',
        message: `unknown template ${templateRef.module}${
          templateRef.version ? `@${templateRef.version}` : ''
        }: ${
          offered.length
            ? `the portal offers ${offered.join(', ')}`
            : 'the portal offers no template (infrared.provisioning.templates)'
        }`,
      });
    } else if (!variableErrors.length) {
      errors.push(
        ...validateTemplateVariables(
          found,
          (spec.variables as Record<string, string>) ?? {},
        ),
      );
    }
  }
  return errors;
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

/**
 * A template as GET /v1/provisioning/templates answers it: without its source and without its
 * internal variables (their defaults are the platform's, often paths of the machine).
 *
 * @public
 */
export function offeredTemplate(template: ClusterTemplate): ClusterTemplate {
  const { source: _source, ...offered } = template;
  return {
    ...offered,
    variables: template.variables.filter(v => !v.internal),
  };
}

/**
 * A template's variables with the request's values over its defaults.
 *
 * @public
 */
export function templateVariables(
  template: ClusterTemplate | undefined,
  variables: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of template?.variables ?? []) {
    if (v.default !== undefined) out[v.name] = v.default;
  }
  return { ...out, ...variables };
}

/**
 * The request body of the action route: the action and, for apply or destroy, the acknowledgement.
 *
 * @public
 */
export interface SetProvisionActionRequest {
  action: ProvisionAction;
  /** Must be true for apply and destroy: the caller read that real, billable resources change. */
  acknowledgeBillable?: boolean;
}

/**
 * Validates the action route's body; apply and destroy need `acknowledgeBillable: true`.
 *
 * @public
 */
export function validateSetProvisionAction(
  body: unknown,
): { value: SetProvisionActionRequest } | { errors: FieldError[] } {
  if (!isObject(body)) {
    return {
      errors: [
        {
          field: 'body',
          message: 'the request body must be a JSON object {"action": ...}',
        },
      ],
    };
  }
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'action' && key !== 'acknowledgeBillable')
      errors.push({
        field: key || 'body', // an empty key still names where it is
        message: `unknown field "${key}": the body takes action and acknowledgeBillable`,
      });
  }
  const action = body.action as ProvisionAction;
  if (!PROVISION_ACTIONS.includes(action)) {
    errors.push({
      field: 'action',
      message: `action must be one of ${PROVISION_ACTIONS.join(
        ', ',
      )}, not ${JSON.stringify(body.action)}`,
    });
  }
  const ack = body.acknowledgeBillable;
  const billable = billableActionProblem(
    PROVISION_ACTIONS.includes(action) ? action : undefined,
    ack,
  );
  if (billable) errors.push(billable);
  return errors.length
    ? { errors }
    : { value: { action, acknowledgeBillable: ack === true } };
}

/**
 * Whether a value is one of the template variable types.
 *
 * @public
 */
export function isTemplateVariableType(
  value: unknown,
): value is TemplateVariable['type'] {
  return TEMPLATE_VARIABLE_TYPES.includes(value as TemplateVariable['type']);
}
