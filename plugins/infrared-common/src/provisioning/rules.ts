/**
 * The rules of building a Cluster with OpenTofu, defined once: the API (POST /v1/clusters and the
 * action route), the register form and the backend's provisioning all use them. The field rules
 * are in fieldRules.ts (re-exported here), the variables' in variables.ts, the templates' in
 * templates.ts, the action's in action.ts; this module checks a whole request.
 */
import type { FieldError } from '../fieldErrors';
import { isObject } from './json';
import { secretNameProblem, TEMPLATE_MODULE_PATTERN } from './fieldRules';
import { findTemplate } from './templates';
import { validateTemplateVariables, validateVariables } from './variables';
import {
  PROVISION_ACTIONS,
  type ClusterTemplate,
  type ClusterTemplateRef,
  type ProvisionAction,
} from './types';

export * from './fieldRules';

const moduleRegExp = new RegExp(TEMPLATE_MODULE_PATTERN);

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
  const errors: FieldError[] = [...contextProblems(context)];
  const { ref, problems } = templateRefOf(template);
  errors.push(...problems);
  if (provision !== undefined && !isObject(provision)) {
    errors.push({ field: 'provision', message: 'provision must be an object' });
    return errors;
  }
  const spec = (provision ?? {}) as Record<string, unknown>;
  errors.push(...provisionFieldProblems(spec));
  const variableErrors = validateVariables(spec.variables);
  errors.push(...variableErrors);
  if (ref && context.templates) {
    errors.push(
      ...offeredTemplateProblems(
        context.templates,
        ref,
        variableErrors.length
          ? undefined
          : (spec.variables as Record<string, string>) ?? {},
      ),
    );
  }
  return errors;
}

/** What the rest of the request rules out: a connection beside a template, a management cluster. */
function contextProblems(context: ProvisioningContext): FieldError[] {
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
  return errors;
}

/** The template reference a request gives, or the problems of its `template` field. */
function templateRefOf(template: unknown): {
  ref?: ClusterTemplateRef;
  problems: FieldError[];
} {
  if (template === undefined) {
    return {
      problems: [
        {
          field: 'template',
          message:
            'provision needs a template ({"module": ..., "version": ...})',
        },
      ],
    };
  }
  if (!isObject(template)) {
    return {
      problems: [
        {
          field: 'template',
          message: 'template must be an object {"module": ..., "version": ...}',
        },
      ],
    };
  }
  const problems: FieldError[] = [];
  for (const key of Object.keys(template)) {
    if (key !== 'module' && key !== 'version')
      problems.push({
        field: `template.${key}`,
        message: `unknown field "template.${key}": template takes module and version`,
      });
  }
  if (
    typeof template.module !== 'string' ||
    !moduleRegExp.test(template.module)
  ) {
    problems.push({
      field: 'template.module',
      message: 'template.module must be a module path like aws/k3s-node',
    });
    return { problems };
  }
  if (template.version !== undefined && typeof template.version !== 'string') {
    problems.push({
      field: 'template.version',
      message: 'template.version must be a string like v0.2.3',
    });
    return { problems };
  }
  const ref = {
    module: template.module,
    version: template.version as string | undefined,
  };
  return { ref, problems };
}

const PROVISION_FIELDS = [
  'action',
  'credentialsSecretRef',
  'variables',
  'image',
  'source',
  'cloudAccount',
];

/** The problems of `provision`'s own fields: unknown ones, the action, credentials, the strings. */
function provisionFieldProblems(spec: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(spec)) {
    if (!PROVISION_FIELDS.includes(key))
      errors.push({
        field: `provision.${key}`,
        message: `unknown field "provision.${key}": provision takes ${PROVISION_FIELDS.join(
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
  errors.push(...credentialsProblems(spec.credentialsSecretRef));
  for (const key of ['image', 'source', 'cloudAccount'] as const) {
    if (spec[key] !== undefined && typeof spec[key] !== 'string')
      errors.push({
        field: `provision.${key}`,
        message: `provision.${key} must be a string`,
      });
  }
  return errors;
}

/** `provision.credentialsSecretRef`: only `{name}`, a Secret name that is not an OpenTofu state. */
function credentialsProblems(credentials: unknown): FieldError[] {
  if (credentials === undefined) return [];
  if (
    !isObject(credentials) ||
    Object.keys(credentials).some(k => k !== 'name')
  ) {
    return [
      {
        field: 'provision.credentialsSecretRef',
        message:
          'provision.credentialsSecretRef must be {"name": <Secret in the OpenTofu Jobs namespace, infrared-tofu by default>}; only the name is read',
      },
    ];
  }
  const problem = secretNameProblem(credentials.name);
  return problem
    ? [{ field: 'provision.credentialsSecretRef.name', message: problem }]
    : [];
}

/**
 * The template must be one the portal offers; then its variables (when they passed their own
 * rules, `variables` given) must fit it.
 */
function offeredTemplateProblems(
  templates: readonly ClusterTemplate[],
  ref: ClusterTemplateRef,
  variables: Record<string, string> | undefined,
): FieldError[] {
  const found = findTemplate(templates, ref);
  if (found)
    return variables ? validateTemplateVariables(found, variables) : [];
  const offered = templates.map(t =>
    t.version ? `${t.module}@${t.version}` : t.module,
  );
  return [
    {
      field: 'template',
      message: `unknown template ${ref.module}${
        ref.version ? `@${ref.version}` : ''
      }: ${
        offered.length
          ? `the portal offers ${offered.join(', ')}`
          : 'the portal offers no template (infrared.provisioning.templates)'
      }`,
    },
  ];
}
