import type { ZodIssue } from 'zod';
import type { FieldError } from '../fieldErrors';
import { inspectKubeconfig } from '../kubeconfig/inspect';
import { billableActionProblem } from '../provisioning/billable';
import {
  defaultAllowList,
  validateAllowedProvision,
} from '../provisioning/allowed';
import { validateProvisioning } from '../provisioning/rules';
import type { ClusterTemplate } from '../provisioning/types';
import type { KubeconfigAccepted } from '../kubeconfig/types';
import {
  buildsCluster,
  connectionProblem,
  registerClusterFieldsSchema,
  RegisterClusterRequest,
} from './request';

/** @public */
export type RegisterClusterValidation =
  | {
      value: RegisterClusterRequest;
      /** The kubeconfig's inspection, for a kubeconfig request. */
      kubeconfig?: KubeconfigAccepted;
    }
  | { errors: FieldError[] };

const FIELDS =
  'name, kubeconfig, inCluster, flavor, provider, region, server, template, provision and acknowledgeBillable';

function toFieldErrors(issue: ZodIssue): FieldError[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map(key => ({
      field: key || 'body', // an empty key still names where it is
      message: `unknown field "${key}": the request takes ${FIELDS}`,
    }));
  }
  return [{ field: issue.path.join('.') || 'body', message: issue.message }];
}

/**
 * The action a request's provision asks for, when it names one.
 *
 * @public
 */
export function provisionActionOf(provision: unknown): unknown {
  return typeof provision === 'object' && provision !== null
    ? (provision as { action?: unknown }).action
    : undefined;
}

/**
 * What POST /v1/clusters is checked against besides its fields.
 *
 * @public
 */
export interface RegisterValidationOptions {
  /** The templates the portal offers (`infrared.provisioning.templates`); none by default. */
  templates?: readonly ClusterTemplate[];
  /**
   * `infrared.provisioning.allowedImages`: what provision.image may name; by default the default
   * OpenTofu image and the templates' images.
   */
  allowedImages?: readonly string[];
  /**
   * `infrared.provisioning.allowedSources`: what provision.source may name; by default the
   * templates' sources.
   */
  allowedSources?: readonly string[];
}

/** The rules of a request that builds a cluster: template and provision, image and source, billing. */
function buildProblems(
  raw: Record<string, unknown>,
  options: RegisterValidationOptions,
): FieldError[] {
  const errors = validateProvisioning(
    { template: raw.template, provision: raw.provision ?? {} },
    {
      templates: options.templates ?? [],
      type: 'workload',
      hasConnection:
        (raw.kubeconfig !== undefined && raw.kubeconfig !== null) ||
        raw.inCluster === true,
    },
  );
  errors.push(
    ...validateAllowedProvision(
      raw.provision,
      defaultAllowList(options.templates ?? [], {
        images: options.allowedImages,
        sources: options.allowedSources,
      }),
    ),
  );
  // the same rule as the action route: apply or destroy at creation needs the acknowledgement
  // (a non-boolean acknowledgeBillable is the field schema's error already)
  const billable = billableActionProblem(
    provisionActionOf(raw.provision),
    raw.acknowledgeBillable === true,
  );
  if (billable) errors.push(billable);
  return errors;
}

/**
 * Validates a POST /v1/clusters body: every field rule, the connection rule and the kubeconfig
 * itself. The backend router and the register form both call this, so they refuse the same things
 * with the same words. Reports every problem it finds, not only the first.
 *
 * @public
 */
export function validateRegisterClusterRequest(
  body: unknown,
  options: RegisterValidationOptions = {},
): RegisterClusterValidation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      errors: [
        { field: 'body', message: 'the request body must be a JSON object' },
      ],
    };
  }
  const raw = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  const parsed = registerClusterFieldsSchema.safeParse(raw);
  if (!parsed.success)
    errors.push(...parsed.error.issues.flatMap(toFieldErrors));

  const connection = connectionProblem(raw);
  if (connection) errors.push({ field: 'kubeconfig', message: connection });
  const builds = buildsCluster(raw);
  if (builds) {
    errors.push(...buildProblems(raw, options));
  }

  let kubeconfig: KubeconfigAccepted | undefined;
  if (!connection && typeof raw.kubeconfig === 'string') {
    const inspection = inspectKubeconfig(raw.kubeconfig, {
      refuseInClusterServer: true,
    });
    if (inspection.ok) kubeconfig = inspection;
    else errors.push(...inspection.errors);
  }
  if (errors.length || !parsed.success) return { errors };

  const {
    inCluster,
    kubeconfig: text,
    template,
    provision,
    acknowledgeBillable: _acknowledged,
    ...rest
  } = parsed.data;
  let value: RegisterClusterRequest;
  if (builds) {
    value = {
      ...rest,
      template,
      provision: provision ?? {},
    } as RegisterClusterRequest;
  } else if (inCluster) {
    value = { ...rest, inCluster: true } as RegisterClusterRequest;
  } else {
    value = { ...rest, kubeconfig: text } as RegisterClusterRequest;
  }
  return kubeconfig ? { value, kubeconfig } : { value };
}
