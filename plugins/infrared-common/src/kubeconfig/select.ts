import type { FieldError } from '../fieldErrors';
import { Entry, Mapping, readEntries, readString } from './read';

export interface Selection {
  context?: string;
  cluster: Entry;
  user: Entry;
}

const quote = (names: string[]) => names.map(n => `"${n}"`).join(', ');

/**
 * Picks the cluster and user the kubeconfig points at. Never guesses between several: pairing one
 * cluster's server with another's credentials would hand that server a credential it must not see.
 */
export function selectClusterAndUser(
  doc: Mapping,
  field: string,
): Selection | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const clusters = readEntries(doc, 'clusters', 'cluster', field, errors);
  const users = readEntries(doc, 'users', 'user', field, errors);
  const contexts = readEntries(doc, 'contexts', 'context', field, errors);
  const current = readString(doc, 'current-context', field, errors) ?? '';
  if (errors.length) return { errors };

  if (clusters.length === 0) {
    errors.push({
      field: `${field}.clusters`,
      message: 'kubeconfig has no clusters',
    });
  }
  if (users.length === 0) {
    errors.push({
      field: `${field}.users`,
      message: 'kubeconfig has no users',
    });
  }
  if (errors.length) return { errors };

  if (clusters.length === 1 && users.length === 1) {
    // Unambiguous whatever the contexts say.
    const named = contexts.find(c => c.name === current);
    return { cluster: clusters[0], user: users[0], context: named?.name };
  }

  const chosen = chooseContext(contexts, current, field, clusters, users);
  if ('errors' in chosen) return chosen;
  const context = chosen.context;

  const at = `${field}.contexts[${context.index}].context`;
  const clusterName = readString(context.body, 'cluster', at, errors) ?? '';
  const userName = readString(context.body, 'user', at, errors) ?? '';
  const cluster = clusters.find(c => c.name === clusterName);
  const user = users.find(u => u.name === userName);
  if (!cluster) {
    errors.push({
      field: `${at}.cluster`,
      message: `context "${context.name}" names cluster "${clusterName}", which is not in clusters`,
    });
  }
  if (!user) {
    errors.push({
      field: `${at}.user`,
      message: `context "${context.name}" names user "${userName}", which is not in users`,
    });
  }
  if (!cluster || !user) return { errors };
  return { context: context.name, cluster, user };
}

/**
 * The context to follow when there are several clusters or users: current-context's, else the only
 * one; an error naming current-context otherwise.
 */
function chooseContext(
  contexts: Entry[],
  current: string,
  field: string,
  clusters: Entry[],
  users: Entry[],
): { context: Entry } | { errors: FieldError[] } {
  const fail = (message: string) => ({
    errors: [{ field: `${field}.current-context`, message }],
  });
  if (current) {
    const context = contexts.find(c => c.name === current);
    if (context) return { context };
    const known = contexts.length
      ? `; contexts are ${quote(contexts.map(c => c.name))}`
      : '';
    return fail(
      `current-context "${current}" names no entry in contexts${known}`,
    );
  }
  if (contexts.length === 1) return { context: contexts[0] };
  if (contexts.length === 0)
    return fail(
      `kubeconfig has ${clusters.length} clusters and ${users.length} users but no context to choose between them: add a context and set current-context`,
    );
  return fail(
    `no current context and more than one context (${quote(
      contexts.map(c => c.name),
    )}): set current-context to the one Infrared should use`,
  );
}
