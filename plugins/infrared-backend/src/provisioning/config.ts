import { Config, readDurationFromConfig } from '@backstage/config';
import {
  DEFAULT_TOFU_NAMESPACE,
  defaultAllowList,
  isTemplateVariableType,
  type ClusterTemplate,
  type ProvisioningAllowList,
  type TemplateVariable,
} from '@infrared-clusters/plugin-infrared-common';
import path from 'node:path';

type Duration = ReturnType<typeof readDurationFromConfig>;

export interface ProvisioningConfig {
  /** `infrared.provisioning.enabled`, default true. */
  enabled: boolean;
  /** `infrared.provisioning.interval`: time between passes, default 15 s. */
  interval: Duration;
  /** `infrared.provisioning.templates`: the templates the API and the register form offer. */
  templates: ClusterTemplate[];
  /**
   * `infrared.provisioning.autoRegister.output`: the module output holding the new cluster's
   * kubeconfig, default `kubeconfig`; `infrared.provisioning.autoRegister.enabled: false` turns
   * auto-registration off (undefined here).
   */
  kubeconfigOutput?: string;
  /**
   * `infrared.provisioning.namespace`: where the OpenTofu Jobs run and keep their state, Leases and
   * credentials Secrets; default `infrared-tofu` (the chart's `provisioning.namespace`).
   */
  namespace: string;
  /**
   * `infrared.provisioning.allowedImages` and `allowedSources`: what provision.image and
   * provision.source may name; by default the templates' images and sources (and the default
   * OpenTofu image).
   */
  allow: ProvisioningAllowList;
  /**
   * `infrared.provisioning.runnerStatusFile`: a JSON file a local environment writes while it
   * prepares what runs the Jobs (devenv's .data/devenv/prepare.json); unset: always ready.
   */
  runnerStatusFile?: string;
  /**
   * `infrared.provisioning.watch`, default false: watch the Jobs and their Pods, so a change is
   * passed at once (the schedule stays the resync).
   */
  watch: boolean;
}

function readNamespace(config: Config): string {
  const namespace =
    config.getOptionalString('infrared.provisioning.namespace') ??
    DEFAULT_TOFU_NAMESPACE;
  if (
    !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(namespace) ||
    namespace.length > 63
  ) {
    throw new Error(
      `infrared.provisioning.namespace must be a namespace name (lowercase letters, digits and -), not ${JSON.stringify(
        namespace,
      )}`,
    );
  }
  return namespace;
}

/** One variable of a template; a repository path in its default is resolved against rootDir. */
function readVariable(
  v: Config,
  key: string,
  rootDir?: string,
): TemplateVariable {
  const type = v.getOptionalString('type') ?? 'string';
  if (!isTemplateVariableType(type)) {
    throw new Error(
      `${key}.type must be string, number, bool, list, map or object, not ${type}`,
    );
  }
  let value = v.getOptionalString('default');
  // a path in this repository (the demo template's devenv CLI and data folder)
  if (value && rootDir && /^\.\.?\//.test(value)) {
    value = path.resolve(rootDir, value);
  }
  const internal = v.getOptionalBoolean('internal') ?? false;
  if (internal && value === undefined) {
    throw new Error(
      `${key} is internal but has no default: an internal variable is never asked for`,
    );
  }
  return {
    name: v.getString('name'),
    type,
    title: v.getOptionalString('title'),
    description: v.getOptionalString('description'),
    default: value,
    ...(internal ? { internal } : {}),
  };
}

/**
 * Reads `infrared.provisioning`. A template's `source`, and a variable's `default`, that start with
 * `./` or `../` are paths in the repository: resolved against `rootDir` (the repository root), so
 * the demo template works from any directory.
 */
export function readProvisioningConfig(
  config: Config,
  rootDir?: string,
): ProvisioningConfig {
  const key = 'infrared.provisioning.interval';
  const templates = (
    config.getOptionalConfigArray('infrared.provisioning.templates') ?? []
  ).map((t, i): ClusterTemplate => {
    const variables = (t.getOptionalConfigArray('variables') ?? []).map(
      (v, j) =>
        readVariable(
          v,
          `infrared.provisioning.templates[${i}].variables[${j}]`,
          rootDir,
        ),
    );
    const image = t.getOptionalString('image');
    let source = t.getOptionalString('source');
    if (source && rootDir && /^\.\.?\//.test(source)) {
      source = path.resolve(rootDir, source);
    }
    return {
      module: t.getString('module'),
      version: t.getOptionalString('version'),
      title: t.getOptionalString('title') ?? t.getString('module'),
      description: t.getOptionalString('description'),
      source,
      ...(image ? { image } : {}),
      variables,
    };
  });
  const resolve = (value: string) =>
    rootDir && /^\.\.?\//.test(value) ? path.resolve(rootDir, value) : value;
  const allowedImages = config.getOptionalStringArray(
    'infrared.provisioning.allowedImages',
  );
  const allowedSources = config
    .getOptionalStringArray('infrared.provisioning.allowedSources')
    ?.map(resolve);
  const autoRegister =
    config.getOptionalBoolean('infrared.provisioning.autoRegister.enabled') ??
    true;
  return {
    enabled: config.getOptionalBoolean('infrared.provisioning.enabled') ?? true,
    interval: config.has(key)
      ? readDurationFromConfig(config, { key })
      : { seconds: 15 },
    templates,
    kubeconfigOutput: autoRegister
      ? config.getOptionalString('infrared.provisioning.autoRegister.output') ??
        'kubeconfig'
      : undefined,
    namespace: readNamespace(config),
    allow: defaultAllowList(templates, {
      images: allowedImages,
      sources: allowedSources,
    }),
    runnerStatusFile: config.getOptionalString(
      'infrared.provisioning.runnerStatusFile',
    ),
    watch: config.getOptionalBoolean('infrared.provisioning.watch') ?? false,
  };
}
