import type { RegistrarApi } from '../api';
import { registrarKeys } from '../labels';
import type { RegistrarOptions } from '../options';
import { SOURCE_SECRET_FIELD_SELECTOR } from '../plan';
import { needsData, type SecretDataCache } from '../reads';
import type { RegistrarScope, RegistrarView } from '../scope';
import type {
  NamespaceLookup,
  NamespaceObject,
  RegistrarSecret,
} from '../types';

/** What a scoped pass observes: the view, with what changed read again. */
export interface ScopedWorld {
  namespaces: NamespaceObject[];
  secrets: RegistrarSecret[];
  namespaceLookups: Record<string, NamespaceLookup>;
  fetched: number;
  /** The namespaces read again: the keys the pass plans. */
  onlyKeys: string[];
}

/** Whether a pass may be scoped: a full pass made the view, and the API can read one namespace. */
export function canScope(api: RegistrarApi, view: RegistrarView): boolean {
  return view.ready && !!api.listSecretsIn && !!api.getSecret;
}

/** A changed namespace, read again: in the view while managed, else a lookup for the planner. */
async function readNamespace(
  api: RegistrarApi,
  name: string,
  options: RegistrarOptions,
  view: RegistrarView,
  lookups: Record<string, NamespaceLookup>,
  signal?: AbortSignal,
): Promise<boolean> {
  const managedBy = registrarKeys(options.labelPrefix).managedBy;
  try {
    const ns = await api.getNamespace(name, signal);
    if (ns && ns.metadata.labels?.[managedBy] === options.managedBy) {
      view.namespaces.set(name, ns);
      return true;
    }
    view.namespaces.delete(name);
    lookups[name] = ns ?? null;
  } catch (e) {
    // Nothing is proven about it this pass: the planner touches nothing of it.
    view.namespaces.delete(name);
    lookups[name] = { error: (e as Error).message };
  }
  return false;
}

/**
 * A changed Secret of the target namespace, read again into the view (gone: out of it); the
 * namespaces it concerns: the source namespace it records, before and now, and those whose
 * cluster label names it.
 */
async function readTargetSecret(
  api: RegistrarApi,
  name: string,
  options: RegistrarOptions,
  view: RegistrarView,
  cache: SecretDataCache,
  signal?: AbortSignal,
): Promise<string[]> {
  const ns = options.targetNamespace;
  const keys = registrarKeys(options.labelPrefix);
  const before = view.target.get(name);
  const found = await api.getSecret!(ns, name, signal);
  if (found) {
    view.target.set(name, found);
    cache.set(found);
  } else {
    view.target.delete(name);
    cache.delete(ns, name);
  }
  const concerned = new Set<string>();
  for (const s of [before, found]) {
    const src = s?.metadata.labels?.[keys.sourceNamespace];
    if (src) concerned.add(src);
  }
  for (const n of view.namespaces.values()) {
    if (`cluster-${n.metadata.labels?.[keys.cluster]}` === name) {
      concerned.add(n.metadata.name);
    }
  }
  return [...concerned];
}

/**
 * The reads of a pass scoped to what changed: each changed namespace (GET) and its Secrets (one
 * LIST in that namespace, with data), and each changed Secret of the target namespace; the rest is
 * the view. A namespace read again but no longer managed was a managed one (the watch saw it): the
 * planner gets it as a lookup, as a full pass's would.
 */
export async function readScoped(
  api: RegistrarApi,
  options: RegistrarOptions,
  view: RegistrarView,
  cache: SecretDataCache,
  scope: RegistrarScope,
  signal?: AbortSignal,
): Promise<ScopedWorld> {
  const namespaceLookups: Record<string, NamespaceLookup> = {};
  const sources: RegistrarSecret[] = [];
  // The target Secrets first: the namespaces they concern are read and planned too.
  const concerned = await Promise.all(
    scope.targetNames.map(name =>
      readTargetSecret(api, name, options, view, cache, signal),
    ),
  );
  const namespaces = [...new Set([...scope.namespaces, ...concerned.flat()])];
  await Promise.all(
    namespaces.map(async name => {
      const [managed, secrets] = await Promise.all([
        readNamespace(api, name, options, view, namespaceLookups, signal),
        api.listSecretsIn!(name, SOURCE_SECRET_FIELD_SELECTOR, signal),
      ]);
      if (!managed) return;
      for (const s of secrets) {
        if (!needsData(s, new Set([name]), options)) continue;
        cache.set(s);
        sources.push(s);
      }
    }),
  );
  return {
    namespaces: [...view.namespaces.values()],
    secrets: [...sources, ...view.target.values()],
    namespaceLookups,
    fetched: sources.length + scope.targetNames.length,
    onlyKeys: namespaces,
  };
}
