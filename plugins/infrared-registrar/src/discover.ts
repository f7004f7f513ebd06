import {
  inspectKubeconfig,
  serializeArgoConfig,
  type CredentialKind,
} from '@infrared-clusters/plugin-infrared-common';
import { pathMatch } from './glob';
import { StringMemo } from './memo';
import {
  byteOrder,
  propagatedAnnotations,
  propagatedLabels,
  registrarKeys,
  type DroppedAnnotation,
} from './labels';
import type { RegistrarOptions, RegistrarProvider } from './options';
import { secretValue } from './secrets';
import type {
  NamespaceObject,
  RegistrarLog,
  RegistrarSecret,
  SkipReason,
} from './types';
import { dns1123SubdomainError } from './validation';

/** Kubeconfig inspections by content: the same bytes always give the same answer. */
const inspections = new StringMemo<ReturnType<typeof inspectKubeconfig>>();

/** A Secret that matched a provider and carries one of its keys. */
export interface KubeconfigCandidate {
  secret: RegistrarSecret;
  provider: RegistrarProvider;
  key: string;
  /** Provenance: +2 the provider's Secret type, +1 a controller ownerReference. */
  provenance: number;
}

/**
 * One child cluster found in a managed namespace, ready to be written out.
 *
 * @public
 */
export interface DiscoveredChild {
  cluster: string;
  namespace: string;
  namespaceUid?: string;
  server: string;
  /** The Argo CD `config` JSON, in stable bytes. */
  config: string;
  provider: string;
  credentialKind: CredentialKind;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Which Secret and key the kubeconfig came from. */
  source: { secret: string; key: string };
}

function provenance(
  secret: RegistrarSecret,
  provider: RegistrarProvider,
): number {
  let score = 0;
  if (provider.secretType && secret.type === provider.secretType) score += 2;
  if ((secret.metadata.ownerReferences ?? []).some(r => r.controller))
    score += 1;
  return score;
}

/**
 * The candidates in a namespace, in the order they are tried: providers in declared order; within
 * one, by provenance then name; a Secret claimed by an earlier provider is skipped; one candidate
 * per declared key the Secret carries, in key order. A Secret with none of the keys is no candidate
 * (vcluster's `vc-config-<name>` matches `vc-*` but carries `config.yaml`, not `config`).
 */
export function findKubeconfigCandidates(
  secrets: RegistrarSecret[],
  providers: RegistrarProvider[],
): { candidates: KubeconfigCandidate[]; namedButKeyless: string[] } {
  const byName = [...secrets].sort((a, b) =>
    byteOrder(a.metadata.name, b.metadata.name),
  );
  const claimed = new Set<string>();
  const candidates: KubeconfigCandidate[] = [];
  const namedButKeyless: string[] = [];
  for (const provider of providers) {
    const matched = byName
      .filter(s => pathMatch(provider.secretNamePattern, s.metadata.name))
      .map(s => ({ s, score: provenance(s, provider) }));
    // Array.prototype.sort is stable: name order is kept within equal provenance.
    matched.sort((a, b) => b.score - a.score);
    for (const { s, score } of matched) {
      if (claimed.has(s.metadata.name)) continue;
      const keys = provider.keys.filter(
        k => s.data?.[k] !== undefined || s.stringData?.[k] !== undefined,
      );
      if (keys.length === 0) {
        namedButKeyless.push(`${s.metadata.name} (provider ${provider.name})`);
        continue;
      }
      claimed.add(s.metadata.name);
      for (const key of keys) {
        candidates.push({ secret: s, provider, key, provenance: score });
      }
    }
  }
  return { candidates, namedButKeyless };
}

export type DiscoverResult =
  | { ok: true; child: DiscoveredChild; logs: RegistrarLog[] }
  | {
      ok: false;
      logs: RegistrarLog[];
      /** Why, for the Clusters page: the cluster named (when labelled), a code and a sentence. */
      skip: { cluster?: string; reason: SkipReason; message: string };
    };

type Inspected = Extract<ReturnType<typeof inspectKubeconfig>, { ok: true }>;

/** Why the namespace's cluster label cannot be registered, or undefined when it can. */
function clusterNameRefusal(
  namespace: string,
  cluster: string,
  label: string,
): RegistrarLog | undefined {
  if (!cluster) {
    return {
      level: 'warn',
      message: 'namespace is managed but has no cluster label; skipping',
      fields: { namespace, label },
    };
  }
  const nameErr = dns1123SubdomainError(`cluster-${cluster}`);
  if (!nameErr) return undefined;
  return {
    level: 'error',
    message: 'cluster name does not yield a valid Secret name; skipping',
    fields: { namespace, cluster, reason: nameErr },
  };
}

/** The skip a refused cluster name means, from its log. */
function skipOf(
  refused: RegistrarLog,
): Extract<DiscoverResult, { ok: false }>['skip'] {
  const { namespace, cluster, label, reason } = refused.fields;
  return cluster
    ? {
        cluster: String(cluster),
        reason: 'invalid_cluster_name',
        message: `cluster name "${cluster}" does not yield a valid Secret name: ${reason}`,
      }
    : {
        reason: 'no_cluster_label',
        message: `namespace ${namespace} is managed but has no ${label} label`,
      };
}

function noCandidateLog(
  namespace: string,
  cluster: string,
  namedButKeyless: string[],
): RegistrarLog {
  const reason = namedButKeyless.length
    ? `secret(s) [${namedButKeyless.join(
        ', ',
      )}] matched a provider pattern but carried none of its keys`
    : 'no secret matching any configured provider';
  return {
    level: 'info',
    message: 'no kubeconfig secret yet; will retry',
    fields: { namespace, cluster, reason },
  };
}

/** What is worth a debug line about the candidate used: those skipped, provenance, TLS. */
function usedCandidateLogs(
  namespace: string,
  cluster: string,
  c: KubeconfigCandidate,
  inspected: Inspected,
  skipped: string[],
): RegistrarLog[] {
  const logs: RegistrarLog[] = [];
  if (skipped.length) {
    logs.push({
      level: 'debug',
      message: 'skipped unusable kubeconfig candidates before this one',
      fields: {
        namespace,
        using: c.secret.metadata.name,
        skipped: skipped.join(' | '),
      },
    });
  }
  if (c.provenance === 0) {
    logs.push({
      level: 'debug',
      message:
        'kubeconfig secret carries no provenance signal (provider secret type or controller ownerReference)',
      fields: {
        namespace,
        secret: c.secret.metadata.name,
        provider: c.provider.name,
      },
    });
  }
  if (inspected.insecure) {
    logs.push({
      level: 'debug',
      message:
        'kubeconfig disables TLS verification (insecure-skip-tls-verify)',
      fields: { namespace, cluster, secret: c.secret.metadata.name },
    });
  }
  return logs;
}

/** The child a usable candidate gives, with the namespace's propagated labels and annotations. */
function childOf(
  ns: NamespaceObject,
  cluster: string,
  c: KubeconfigCandidate,
  inspected: Inspected,
  options: RegistrarOptions,
  logs: RegistrarLog[],
): DiscoverResult {
  const namespace = ns.metadata.name;
  const annotations = propagatedAnnotations(
    ns.metadata.annotations,
    options.labelPrefix,
  );
  for (const d of annotations.dropped) {
    logs.push(droppedAnnotationLog(d, namespace));
  }
  return {
    ok: true,
    logs,
    child: {
      cluster,
      namespace,
      ...(ns.metadata.uid ? { namespaceUid: ns.metadata.uid } : {}),
      server: inspected.server,
      config: serializeArgoConfig(inspected.argoConfig),
      provider: c.provider.name,
      credentialKind: inspected.credentialKind,
      labels: propagatedLabels(ns.metadata.labels, options.labelPrefix),
      annotations: annotations.annotations,
      source: { secret: c.secret.metadata.name, key: c.key },
    },
  };
}

/**
 * Evaluates one managed namespace. `ok: false` means "not this time", never "gone": the caller
 * must then skip garbage collection for this namespace.
 */
export function discoverChild(
  ns: NamespaceObject,
  secrets: RegistrarSecret[],
  options: RegistrarOptions,
): DiscoverResult {
  const namespace = ns.metadata.name;
  const label = registrarKeys(options.labelPrefix).cluster;
  const cluster = ns.metadata.labels?.[label] ?? '';
  const refused = clusterNameRefusal(namespace, cluster, label);
  if (refused) return { ok: false, logs: [refused], skip: skipOf(refused) };
  const { candidates, namedButKeyless } = findKubeconfigCandidates(
    secrets,
    options.providers,
  );
  if (candidates.length === 0) {
    const log = noCandidateLog(namespace, cluster, namedButKeyless);
    return {
      ok: false,
      logs: [log],
      skip: {
        cluster,
        reason: 'no_kubeconfig',
        message: `no kubeconfig Secret yet in namespace ${namespace}: ${log.fields.reason}`,
      },
    };
  }
  const parseErrors: string[] = [];
  for (const c of candidates) {
    const text = secretValue(c.secret, c.key) ?? '';
    const allowExec = options.execCredentials && c.provider.allowExec;
    const inspected = inspections.get(
      `${allowExec ? 'exec' : 'noexec'}\n${text}`,
      () => inspectKubeconfig(text, { allowExec, refuseInClusterServer: true }),
    );
    if (!inspected.ok) {
      parseErrors.push(
        `${c.secret.metadata.name}[${c.key}]: ${inspected.errors
          .map(e => e.message)
          .join('; ')}`,
      );
      continue;
    }
    const logs = usedCandidateLogs(
      namespace,
      cluster,
      c,
      inspected,
      parseErrors,
    );
    return childOf(ns, cluster, c, inspected, options, logs);
  }
  return {
    ok: false,
    logs: [
      {
        level: 'warn',
        message: 'no usable kubeconfig; skipping',
        fields: { namespace, cluster, errors: parseErrors.join(' | ') },
      },
    ],
    skip: {
      cluster,
      reason: 'unusable_kubeconfig',
      message: `no usable kubeconfig in namespace ${namespace}: ${parseErrors.join(
        ' | ',
      )}`,
    },
  };
}

function droppedAnnotationLog(
  d: DroppedAnnotation,
  namespace: string,
): RegistrarLog {
  const message = {
    value_too_large: 'annotation is too large to propagate; skipping it',
    too_many_keys: 'too many annotations to propagate; dropping the rest',
    total_too_large:
      'annotations exceed the total size that propagates; dropping this one',
  }[d.reason];
  return {
    level: 'warn',
    message,
    fields: { namespace, annotation: d.key, reason: d.reason },
  };
}
