import {
  CLUSTER_NAME_LABEL,
  DEFAULT_TOFU_IMAGE,
  DEFAULT_TOFU_NAMESPACE,
  encodeVariable,
  INFRARED_GROUP,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  moduleSource,
  provisionAction,
  tofuAccessName,
  tofuJobName,
  tofuStateSuffix,
  type ClusterResource,
  type ObjectMeta,
  type ProvisionAction,
} from '@infrared-clusters/plugin-infrared-common';
import { createHash } from 'node:crypto';
import {
  TOFU_CONTAINER_SECURITY_CONTEXT,
  TOFU_POD_SECURITY_CONTEXT,
} from './access';
import { TOFU_SCRIPT } from './script';

/**
 * A week: a finished Job is deleted by Kubernetes' TTL controller after this.
 *
 * @public
 */
export const TOFU_JOB_TTL_SECONDS = 604_800;

/**
 * Labels on every OpenTofu Job and its Pod.
 *
 * @public
 */
export const TOFU_JOB_LABELS = {
  app: 'app.kubernetes.io/name',
  appValue: 'infrared-tofu',
  cluster: CLUSTER_NAME_LABEL,
  clusterUid: `${INFRARED_GROUP}/cluster-uid`,
  generation: `${INFRARED_GROUP}/generation`,
  action: `${INFRARED_GROUP}/action`,
} as const;

/**
 * Annotation on a Job: the hash of the spec.template and spec.provision it runs.
 *
 * @public
 */
export const TOFU_SPEC_HASH_ANNOTATION = `${INFRARED_GROUP}/provision-spec-hash`;

/**
 * The label selector of every OpenTofu Job Infrared made (one LIST per pass).
 *
 * @public
 */
export const TOFU_JOB_SELECTOR = `${TOFU_JOB_LABELS.app}=${TOFU_JOB_LABELS.appValue},${MANAGED_BY_LABEL}=${MANAGED_BY_INFRARED}`;

/**
 * The container's name in the Job's Pod.
 *
 * @public
 */
export const TOFU_CONTAINER = 'tofu';

/**
 * A git credential helper that answers with GIT_TOKEN from the environment, when it is set.
 *
 * @public
 */
export const GIT_TOKEN_CREDENTIAL_HELPER =
  '!f() { test "$1" = get && test -n "${GIT_TOKEN:-}" && echo username=x-access-token && echo "password=${GIT_TOKEN}"; }; f';

/** @public */
export interface EnvVar {
  name: string;
  value: string;
}

/**
 * A Job as the plugins write it (plain JSON, the fields batch/v1 takes).
 *
 * @public
 */
export interface TofuJob {
  apiVersion: 'batch/v1';
  kind: 'Job';
  metadata: ObjectMeta;
  spec: {
    backoffLimit: number;
    ttlSecondsAfterFinished: number;
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        serviceAccountName: string;
        restartPolicy: 'Never';
        securityContext: typeof TOFU_POD_SECURITY_CONTEXT;
        containers: Array<{
          name: string;
          image: string;
          command: string[];
          env: EnvVar[];
          envFrom?: Array<{ secretRef: { name: string } }>;
          terminationMessagePolicy: 'FallbackToLogsOnError';
          securityContext: typeof TOFU_CONTAINER_SECURITY_CONTEXT;
        }>;
      };
    };
  };
}

/**
 * The hash of what the Job runs: spec.template and spec.provision (not the connection).
 *
 * @public
 */
export function provisionSpecHash(cluster: ClusterResource): string {
  const { template, provision } = cluster.spec;
  const canonical = JSON.stringify({ template, provision }, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map(k => [k, v[k]]),
        )
      : v,
  );
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/**
 * `TF_VAR_<name>` for each variable, JSON where the value starts with `[` or `{`. Throws on bad JSON.
 *
 * @public
 */
export function variableEnv(variables: Record<string, string> = {}): EnvVar[] {
  return Object.keys(variables)
    .sort()
    .map(name => {
      const encoded = encodeVariable(variables[name]);
      if ('error' in encoded) {
        throw new Error(`provision.variables.${name} ${encoded.error}`);
      }
      return { name: `TF_VAR_${name}`, value: encoded.value };
    });
}

/** @public */
export interface TofuJobOptions {
  /** Default `infrared-tofu` (DEFAULT_TOFU_NAMESPACE). */
  namespace?: string;
  /**
   * The Job's name when `tofu-<cluster>-<generation>-<action>` is taken by a Job of an earlier
   * Cluster of the same name (Jobs outlive their Cluster).
   */
  name?: string;
  /** The template's image from config, used when spec.provision.image is empty. */
  templateImage?: string;
  /** The template's variables (defaults merged in) instead of spec.provision.variables. */
  variables?: Record<string, string>;
  /** The template's source from config, used when spec.provision.source is empty. */
  templateSource?: string;
}

/** The labels that find a Cluster's Jobs (its name, uid, generation and action). */
function tofuJobLabels(
  name: string,
  uid: string | undefined,
  generation: number,
  action: ProvisionAction,
): Record<string, string> {
  const labels: Record<string, string> = {
    [TOFU_JOB_LABELS.app]: TOFU_JOB_LABELS.appValue,
    [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED,
    [TOFU_JOB_LABELS.cluster]: name,
    [TOFU_JOB_LABELS.generation]: String(generation),
    [TOFU_JOB_LABELS.action]: action,
  };
  if (uid) labels[TOFU_JOB_LABELS.clusterUid] = uid;
  return labels;
}

/**
 * The Job that runs a Cluster's template for its current generation and action:
 * `tofu-<cluster>-<generation>-<action>` in namespace infrared-tofu, as the Cluster's own
 * ServiceAccount `tofu-<cluster>-<uid prefix>`, no retry (backoffLimit 0), deleted a week after it
 * finishes. It is not owned by the Cluster: removing the Cluster never stops a running build, and
 * a finished Job and its log stay their week. Its Pod passes Pod Security `restricted`. The
 * credentials Secret's keys are its environment (envFrom); nothing secret is in its command or args.
 *
 * @public
 */
export function tofuJob(
  cluster: ClusterResource,
  options: TofuJobOptions = {},
): TofuJob {
  const { name, uid } = cluster.metadata;
  const { template, provision = {} } = cluster.spec;
  if (!template) throw new Error(`cluster ${name} has no spec.template`);
  const generation = cluster.metadata.generation ?? 1;
  const action: ProvisionAction = provisionAction(provision);
  const namespace = options.namespace ?? DEFAULT_TOFU_NAMESPACE;
  const source = moduleSource(template, {
    source: provision.source || options.templateSource,
  });
  const labels = tofuJobLabels(name, uid, generation, action);
  const env: EnvVar[] = [
    { name: 'INFRARED_ACTION', value: action },
    { name: 'INFRARED_MODULE_SOURCE', value: source },
    { name: 'INFRARED_STATE_SUFFIX', value: tofuStateSuffix(name) },
    { name: 'INFRARED_STATE_NAMESPACE', value: namespace },
    { name: 'TF_IN_AUTOMATION', value: '1' },
    { name: 'TF_INPUT', value: '0' },
    { name: 'GIT_TERMINAL_PROMPT', value: '0' },
    { name: 'GIT_CONFIG_COUNT', value: '1' },
    { name: 'GIT_CONFIG_KEY_0', value: 'credential.helper' },
    { name: 'GIT_CONFIG_VALUE_0', value: GIT_TOKEN_CREDENTIAL_HELPER },
    ...variableEnv(options.variables ?? provision.variables),
  ];
  const credentials = provision.credentialsSecretRef?.name;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: options.name ?? tofuJobName(name, generation, action),
      namespace,
      labels,
      annotations: { [TOFU_SPEC_HASH_ANNOTATION]: provisionSpecHash(cluster) },
    },
    spec: {
      backoffLimit: 0,
      ttlSecondsAfterFinished: TOFU_JOB_TTL_SECONDS,
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: tofuAccessName(name, uid),
          restartPolicy: 'Never',
          securityContext: TOFU_POD_SECURITY_CONTEXT,
          containers: [
            {
              name: TOFU_CONTAINER,
              image:
                provision.image || options.templateImage || DEFAULT_TOFU_IMAGE,
              command: ['/bin/sh', '-ec', TOFU_SCRIPT],
              env,
              ...(credentials
                ? { envFrom: [{ secretRef: { name: credentials } }] }
                : {}),
              terminationMessagePolicy: 'FallbackToLogsOnError',
              securityContext: TOFU_CONTAINER_SECURITY_CONTEXT,
            },
          ],
        },
      },
    },
  };
}
