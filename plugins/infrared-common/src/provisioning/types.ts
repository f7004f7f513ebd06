/** The shapes of building a Cluster with OpenTofu (spec.template, spec.provision, status.provision). */

/**
 * What the Job runs: `plan` (the default) shows, `apply` builds (billable), `destroy` removes.
 *
 * @public
 */
export const PROVISION_ACTIONS = ['plan', 'apply', 'destroy'] as const;
/** @public */
export type ProvisionAction = (typeof PROVISION_ACTIONS)[number];

/**
 * The Job's phase in `status.provision.phase`.
 *
 * @public
 */
export const PROVISION_PHASES = [
  'Waiting',
  'Running',
  'Succeeded',
  'Failed',
] as const;
/** @public */
export type ProvisionPhase = (typeof PROVISION_PHASES)[number];

/**
 * The condition a Cluster with a template carries.
 *
 * @public
 */
export const PROVISIONED_CONDITION = 'Provisioned';

/**
 * `spec.template`: a tagged OpenTofu module.
 *
 * @public
 */
export interface ClusterTemplateRef {
  module: string;
  version?: string;
}

/**
 * `spec.provision`.
 *
 * @public
 */
export interface ProvisionSpec {
  action?: ProvisionAction;
  cloudAccount?: string;
  /**
   * A Secret in the OpenTofu Jobs' namespace (`infrared.provisioning.namespace`, default
   * `infrared-tofu`); its keys become the Job's environment. Only the name is read.
   */
  credentialsSecretRef?: { name: string };
  image?: string;
  source?: string;
  variables?: Record<string, string>;
}

/**
 * One resource the plan changes, as `tofu show -json` names it.
 *
 * @public
 */
export interface PlannedResourceChange {
  address: string;
  /** `create`, `update`, `delete` (a replacement has both `delete` and `create`). */
  actions: string[];
}

/**
 * What a plan would do: `N to add, M to change, K to destroy` and the resources.
 *
 * @public
 */
export interface PlanSummary {
  add: number;
  change: number;
  destroy: number;
  resources: PlannedResourceChange[];
}

/**
 * `status.provision`: the last OpenTofu Job, read from the Job.
 *
 * @public
 */
export interface ProvisionStatus {
  action: ProvisionAction | string;
  generation: number;
  job: string;
  phase: ProvisionPhase;
  message?: string;
  /** How to read the Job's log: `kubectl -n infrared logs job/<job>`. */
  logs?: string;
  /** A plan Job's summary, once it succeeded. */
  summary?: PlanSummary;
  /** The hash of spec.template and spec.provision the Job ran: a new Job only when they change. */
  specHash?: string;
}

/**
 * The types a template variable can declare; each value is still sent as a string (TF_VAR_).
 *
 * @public
 */
export const TEMPLATE_VARIABLE_TYPES = [
  'string',
  'number',
  'bool',
  'list',
  'map',
  'object',
] as const;
/** @public */
export type TemplateVariableType = (typeof TEMPLATE_VARIABLE_TYPES)[number];

/**
 * One input of a cluster template, as `infrared.provisioning.templates[].variables` lists it.
 *
 * @public
 */
export interface TemplateVariable {
  name: string;
  type: TemplateVariableType;
  title?: string;
  description?: string;
  /** Used when the request leaves the variable out; a variable without default is required. */
  default?: string;
  /**
   * Set by the platform only: its default is always used, a request may not set it, and
   * GET /v1/provisioning/templates leaves it out (a machine path must not reach the page).
   */
  internal?: boolean;
}

/**
 * A cluster template the portal offers (`infrared.provisioning.templates`).
 *
 * @public
 */
export interface ClusterTemplate {
  module: string;
  version?: string;
  title: string;
  description?: string;
  /** The module source for this template, instead of the default repository. */
  source?: string;
  /** The OpenTofu image for this template, instead of the default one. */
  image?: string;
  variables: TemplateVariable[];
}

/**
 * Whether the OpenTofu Jobs can run yet: not while a local environment still prepares what runs
 * them (GET /v1/provisioning/templates' `runner`). Builds started meanwhile wait, then run.
 *
 * @public
 */
export interface ProvisioningRunnerView {
  ready: boolean;
  /** What is missing, e.g. "OpenTofu is being prepared (about 7 min left)". */
  message?: string;
  /** 0-100, while it is being prepared. */
  percent?: number;
  secondsLeft?: number;
}
