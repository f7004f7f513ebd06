import { forEachLimited } from '@infrared-clusters/infrared-kube';
import type { RegistrarApi } from './api';
import { pathMatch } from './glob';
import { registrarKeys } from './labels';
import type { RegistrarOptions } from './options';
import type { NamespaceObject, RegistrarSecret } from './types';

/** Argo CD's label on its cluster Secrets (the server check reads them all). */
const ARGO_SECRET_TYPE = 'argocd.argoproj.io/secret-type';

/**
 * More Secrets to fetch than this and a pass lists every Secret with its data once (a cold start,
 * 1,000 new children) instead of one request each.
 *
 * @public
 */
export const BULK_FETCH_THRESHOLD = 20;

/**
 * Secrets with their data, kept between passes for the ones a pass needs (kubeconfig Secrets that
 * match a provider in a managed namespace, and the target namespace's Argo CD and owned Secrets),
 * keyed by namespace/name and trusted while uid and resourceVersion are unchanged. Everything else
 * a pass reads is metadata and is not kept, so memory follows the children, not the cluster.
 *
 * @public
 */
export class SecretDataCache {
  private readonly entries = new Map<string, RegistrarSecret>();

  static key(s: Pick<RegistrarSecret, 'metadata'>): string {
    return `${s.metadata.namespace ?? ''}/${s.metadata.name}`;
  }

  /** The cached copy when it is this incarnation at this version. */
  get(meta: RegistrarSecret): RegistrarSecret | undefined {
    const hit = this.entries.get(SecretDataCache.key(meta));
    if (
      hit &&
      hit.metadata.uid === meta.metadata.uid &&
      hit.metadata.resourceVersion === meta.metadata.resourceVersion
    ) {
      return hit;
    }
    return undefined;
  }

  /** Whether this exact version of the Secret was read or written already. */
  has(namespace: string, name: string, resourceVersion?: string): boolean {
    const hit = this.entries.get(`${namespace}/${name}`);
    return (
      !!hit &&
      !!resourceVersion &&
      hit.metadata.resourceVersion === resourceVersion
    );
  }

  set(secret: RegistrarSecret): void {
    this.entries.set(SecretDataCache.key(secret), secret);
  }

  delete(namespace: string, name: string): void {
    this.entries.delete(`${namespace}/${name}`);
  }

  /** Keeps only these keys. */
  retain(keys: Set<string>): void {
    for (const k of this.entries.keys())
      if (!keys.has(k)) this.entries.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<RegistrarApi, SecretDataCache>();

/**
 * The cache that goes with one API client (one per CLI process or backend task).
 *
 * @public
 */
export function secretDataCacheFor(api: RegistrarApi): SecretDataCache {
  let cache = caches.get(api);
  if (!cache) {
    cache = new SecretDataCache();
    caches.set(api, cache);
  }
  return cache;
}

/** Whether a pass needs this Secret's data (else its metadata is enough, or it is ignored). */
export function needsData(
  secret: RegistrarSecret,
  managed: ReadonlySet<string>,
  options: RegistrarOptions,
): boolean {
  const { namespace = '', name, labels = {} } = secret.metadata;
  if (namespace === options.targetNamespace) {
    const keys = registrarKeys(options.labelPrefix);
    return (
      labels[keys.managedBy] === options.managedBy ||
      ARGO_SECRET_TYPE in labels ||
      keys.orphanedSecretType in labels
    );
  }
  return (
    managed.has(namespace) &&
    options.providers.some(p => pathMatch(p.secretNamePattern, name))
  );
}

export interface SecretReads {
  /** What the planner reads: data where needed, metadata for the target namespace's others. */
  secrets: RegistrarSecret[];
  /** Secrets fetched with data this pass (cache misses). */
  fetched: number;
  /** The metadata list's resourceVersion. */
  resourceVersion?: string;
}

/**
 * Completes a metadata-only list: the Secrets a pass needs get their data, from the cache when
 * their uid and resourceVersion are unchanged, else fetched (one LIST per Secret, or a single
 * LIST of all with data when more than BULK_FETCH_THRESHOLD changed).
 */
export async function completeSecrets(
  api: RegistrarApi,
  listed: RegistrarSecret[],
  namespaces: NamespaceObject[],
  options: RegistrarOptions,
  deps: {
    cache: SecretDataCache;
    fieldSelector: string;
    signal?: AbortSignal;
    concurrency?: number;
  },
): Promise<Omit<SecretReads, 'resourceVersion'>> {
  const { cache, signal } = deps;
  const managed = new Set(namespaces.map(n => n.metadata.name));
  const out: RegistrarSecret[] = [];
  const missing: RegistrarSecret[] = [];
  const wanted = new Set<string>();
  for (const s of listed) {
    if (needsData(s, managed, options)) {
      wanted.add(SecretDataCache.key(s));
      const hit = cache.get(s);
      if (hit) out.push(hit);
      else missing.push(s);
    } else if (s.metadata.namespace === options.targetNamespace) {
      out.push(s);
    }
  }
  if (missing.length > BULK_FETCH_THRESHOLD) {
    const all = await api.listSecrets(deps.fieldSelector, signal);
    const byKey = new Map(all.map(s => [SecretDataCache.key(s), s]));
    for (const m of missing) {
      const full = byKey.get(SecretDataCache.key(m));
      if (!full) continue; // deleted since the metadata list
      cache.set(full);
      out.push(full);
    }
  } else if (missing.length) {
    const fetched: RegistrarSecret[] = [];
    await forEachLimited(
      missing,
      deps.concurrency ?? 8,
      async m => {
        const full = await api.getSecret!(
          m.metadata.namespace ?? '',
          m.metadata.name,
          signal,
        );
        if (full) fetched.push(full);
      },
      signal,
    );
    for (const full of fetched) {
      cache.set(full);
      out.push(full);
    }
  }
  cache.retain(wanted);
  out.sort((a, b) => {
    const ka = SecretDataCache.key(a);
    const kb = SecretDataCache.key(b);
    if (ka === kb) return 0;
    return ka < kb ? -1 : 1;
  });
  return { secrets: out, fetched: missing.length };
}
