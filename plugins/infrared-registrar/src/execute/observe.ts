import type { RegistrarApi } from '../api';
import { registrarKeys } from '../labels';
import type { RegistrarLogger } from '../logger';
import type { RegistrarOptions } from '../options';
import {
  hiddenTargetSecrets,
  SOURCE_SECRET_FIELD_SELECTOR,
  type RegistrarRead,
} from '../plan';
import { completeSecrets, type SecretDataCache } from '../reads';
import type {
  NamespaceLookup,
  NamespaceObject,
  RegistrarSecret,
} from '../types';

/** What a pass's first reads found. */
export interface ListedWorld {
  namespaces: NamespaceObject[];
  secrets: RegistrarSecret[];
  /** Secrets whose data was fetched. */
  fetched: number;
  /** Of the Secret list (metadata reads), where a watch may start. */
  resourceVersion?: string;
}

/**
 * The pass's constant reads: LIST the managed namespaces and, at once, the Secrets across
 * namespaces. With metadata reads, the Secret list is metadata only and the data comes for the
 * Secrets a pass uses, and only when they changed since `cache` saw them.
 */
export async function listWorld(
  api: RegistrarApi,
  options: RegistrarOptions,
  cache: SecretDataCache,
  signal?: AbortSignal,
): Promise<ListedWorld> {
  const selector = `${registrarKeys(options.labelPrefix).managedBy}=${
    options.managedBy
  }`;
  if (!api.listSecretsMetadata || !api.getSecret) {
    const [namespaces, secrets] = await Promise.all([
      api.listNamespaces(selector, signal),
      api.listSecrets(SOURCE_SECRET_FIELD_SELECTOR, signal),
    ]);
    return { namespaces, secrets, fetched: 0 };
  }
  const [namespaces, listed] = await Promise.all([
    api.listNamespaces(selector, signal),
    api.listSecretsMetadata(SOURCE_SECRET_FIELD_SELECTOR, signal),
  ]);
  const done = await completeSecrets(api, listed.items, namespaces, options, {
    cache,
    fieldSelector: SOURCE_SECRET_FIELD_SELECTOR,
    signal,
  });
  return {
    namespaces,
    secrets: done.secrets,
    fetched: done.fetched,
    resourceVersion: listed.resourceVersion,
  };
}

/** What a planner's read found: namespace lookups, or Secrets to add to the observation. */
export type ReadAnswer =
  | { lookups: Record<string, NamespaceLookup> }
  | { secrets: RegistrarSecret[] };

/**
 * Sends the read a plan asked for. A namespace that cannot be read is an answer too (its error);
 * a target namespace that cannot be listed adds nothing (the creates go ahead, AlreadyExists
 * decides).
 */
export async function readFor(
  api: RegistrarApi,
  read: RegistrarRead,
  seen: RegistrarSecret[],
  options: RegistrarOptions,
  deps: { signal?: AbortSignal; logger: RegistrarLogger },
): Promise<ReadAnswer> {
  if (read.type === 'getNamespaces') {
    const lookups: Record<string, NamespaceLookup> = {};
    await Promise.all(
      read.names.map(async name => {
        try {
          lookups[name] = (await api.getNamespace(name, deps.signal)) ?? null;
        } catch (e) {
          lookups[name] = { error: (e as Error).message };
        }
      }),
    );
    return { lookups };
  }
  try {
    const listed = read.names
      ? await readNames(api, read.namespace, read.names, deps.signal)
      : await api.listSecretMetadata!(read.namespace, deps.signal);
    return { secrets: hiddenTargetSecrets(listed, seen, options) };
  } catch (e) {
    deps.logger.debug(
      'could not list the target namespace; creates go ahead and AlreadyExists decides',
      { namespace: read.namespace, error: (e as Error).message },
    );
    return { secrets: [] };
  }
}

/** The Secrets of these names in one namespace, every type (a scoped pass's creates). */
async function readNames(
  api: RegistrarApi,
  namespace: string,
  names: string[],
  signal?: AbortSignal,
): Promise<RegistrarSecret[]> {
  const found = await Promise.all(
    names.map(name => api.getSecret!(namespace, name, signal)),
  );
  return found.filter((s): s is RegistrarSecret => !!s);
}
