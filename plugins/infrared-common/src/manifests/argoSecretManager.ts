import {
  ARGOCD_NAMESPACE,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
} from '../clusters/names';
import type { ObjectMeta } from '../clusters/types';

/**
 * Who keeps an Argo CD cluster Secret, read from its labels and annotations.
 *
 * @public
 */
export type ArgoSecretManager =
  | { kind: 'infrared' }
  /** The child-cluster registrar (or upstream argocd-cluster-registrar): `<prefix>managed-by`. */
  | {
      kind: 'registrar';
      label: string;
      value: string;
      sourceNamespace?: string;
    }
  /** Another tool that says so: `app.kubernetes.io/managed-by` (Helm ...) or the argocd CLI. */
  | { kind: 'tool'; name: string; via: string }
  /** Nothing says who wrote it: made by hand, as seed 003 calls it. */
  | { kind: 'hand' };

/** The annotation `argocd cluster add` writes on the Secrets it makes. */
const ARGOCD_CLI_ANNOTATION = 'managed-by';

/**
 * Tells who manages an Argo CD cluster Secret, so nobody takes over another's Secret.
 *
 * @public
 */
export function argoSecretManager(metadata: ObjectMeta): ArgoSecretManager {
  const labels = metadata.labels ?? {};
  if (labels[MANAGED_BY_LABEL] === MANAGED_BY_INFRARED)
    return { kind: 'infrared' };
  const registrarKey = Object.keys(labels)
    .sort()
    .find(k => k.endsWith('/managed-by') && k !== MANAGED_BY_LABEL);
  if (registrarKey) {
    const prefix = registrarKey.slice(0, -'managed-by'.length);
    const sourceNamespace = labels[`${prefix}source-namespace`];
    return {
      kind: 'registrar',
      label: registrarKey,
      value: labels[registrarKey],
      ...(sourceNamespace ? { sourceNamespace } : {}),
    };
  }
  if (labels[MANAGED_BY_LABEL]) {
    return {
      kind: 'tool',
      name: labels[MANAGED_BY_LABEL],
      via: `label ${MANAGED_BY_LABEL}=${labels[MANAGED_BY_LABEL]}`,
    };
  }
  const cli = metadata.annotations?.[ARGOCD_CLI_ANNOTATION];
  if (cli) {
    return {
      kind: 'tool',
      name: cli,
      via: `annotation ${ARGOCD_CLI_ANNOTATION}=${cli}`,
    };
  }
  return { kind: 'hand' };
}

/**
 * "Secret argocd/cluster-x is managed by ...": who, and the label or annotation that says so.
 *
 * @public
 */
export function describeArgoSecretManager(metadata: ObjectMeta): string {
  const where = `Secret ${metadata.namespace ?? ARGOCD_NAMESPACE}/${
    metadata.name
  }`;
  const manager = argoSecretManager(metadata);
  switch (manager.kind) {
    case 'infrared':
      return `${where} is managed by Infrared`;
    case 'registrar':
      return `${where} is managed by the child-cluster registrar (label ${
        manager.label
      }=${manager.value}${
        manager.sourceNamespace
          ? `, from namespace ${manager.sourceNamespace}`
          : ''
      })`;
    case 'tool':
      return `${where} is managed by another tool, ${manager.name} (${manager.via})`;
    default:
      return `${where} was made by hand (it has no managed-by label)`;
  }
}
