/**
 * Whether an Argo CD AppProject lets an Application deploy to a destination, by the rules Argo CD
 * applies (AppProject.IsDestinationPermitted in v3.6.1): a destination is permitted when some entry
 * of `spec.destinations` matches its server or name and its namespace, and no `!`-prefixed (deny)
 * entry refuses it by Argo CD's deny rules (see appProjectPermits). Patterns are globs (`*`, `?`,
 * `[a-z]`, `[!a]`, `{a,b}`); `*` matches `/` too.
 */

/**
 * An entry of an AppProject's `spec.destinations`, or an Application's `spec.destination`.
 *
 * @public
 */
export interface ArgoDestination {
  server?: string;
  name?: string;
  namespace?: string;
}

/**
 * An entry of an AppProject's `spec.clusterResourceWhitelist` or `spec.clusterResourceBlacklist`.
 *
 * @public
 */
export interface ClusterResourceRestriction {
  group: string;
  kind: string;
  /** Argo CD 3.x: only objects of this name (a path.Match pattern); empty for all. */
  name?: string;
}

/**
 * The part of an AppProject the check reads.
 *
 * @public
 */
export interface AppProjectFacts {
  name: string;
  destinations: ArgoDestination[];
  /** `spec.permitOnlyProjectScopedClusters`: only clusters whose Secret names this project. */
  permitOnlyProjectScopedClusters?: boolean;
  /** `spec.clusterResourceWhitelist`: the cluster-scoped kinds Argo CD may sync (none when empty). */
  clusterResourceWhitelist?: ClusterResourceRestriction[];
  /** `spec.clusterResourceBlacklist`. */
  clusterResourceBlacklist?: ClusterResourceRestriction[];
}

/**
 * The AppProject zones use unless configured otherwise.
 *
 * @public
 */
export const DEFAULT_ZONE_PROJECT = 'products';

function escapeRegExp(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/**
 * How a pattern language reads `*`, `?`, a class's negation and braces: gobwas/glob (Argo CD's
 * glob.Match: `*` and `?` cross `/`, `[!...]`, `{a,b}`) and Go's path/filepath.Match (`*` and `?`
 * stop at `/`, `[^...]`, no braces).
 */
interface PatternSyntax {
  star: string;
  question: string;
  negate: string;
  braces: boolean;
}

const GLOB: PatternSyntax = {
  star: '.*',
  question: '.',
  negate: '!',
  braces: true,
};
const PATH_MATCH: PatternSyntax = {
  star: '[^/]*',
  question: '[^/]',
  negate: '^',
  braces: false,
};

/** A character class `[...]` at `i` as RegExp source and where it ends; undefined when malformed. */
function classSource(pattern: string, i: number, negation: string) {
  const end = pattern.indexOf(']', i + 1);
  if (end < 0) return undefined;
  let body = pattern.slice(i + 1, end);
  const negate = body.startsWith(negation);
  if (negate) body = body.slice(1);
  if (!body) return undefined;
  const source = `[${negate ? '^' : ''}${body.replace(
    /[\\\]^]/g,
    m => `\\${m}`,
  )}]`;
  return { source, end };
}

/** A pattern as a RegExp source (no anchors); undefined when the pattern does not compile. */
function patternSource(
  pattern: string,
  syntax: PatternSyntax,
): string | undefined {
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      if (i >= pattern.length) return undefined;
      out += escapeRegExp(pattern[i]);
    } else if (c === '*') {
      out += syntax.star;
    } else if (c === '?') {
      out += syntax.question;
    } else if (c === '[') {
      const found = classSource(pattern, i, syntax.negate);
      if (!found) return undefined;
      out += found.source;
      i = found.end;
    } else if (syntax.braces && c === '{') {
      depth++;
      out += '(?:';
    } else if (syntax.braces && c === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (syntax.braces && c === ',' && depth > 0) {
      out += '|';
    } else {
      out += escapeRegExp(c);
    }
  }
  return depth === 0 ? out : undefined;
}

const globCache = new Map<string, RegExp | null>();

/**
 * Whether `value` matches the glob `pattern` (an invalid pattern matches nothing).
 *
 * @public
 */
export function globMatches(pattern: string, value: string): boolean {
  let re = globCache.get(pattern);
  if (re === undefined) {
    const source = patternSource(pattern, GLOB);
    re = source === undefined ? null : new RegExp(`^${source}$`, 's');
    if (globCache.size > 1000) globCache.clear();
    globCache.set(pattern, re);
  }
  return re ? re.test(value) : false;
}

const isDeny = (pattern: string | undefined) => !!pattern?.startsWith('!');

/** Argo CD's pattern match: `!p` matches what `p` does not; `*` matches anything. */
function patternMatches(pattern: string | undefined, value: string): boolean {
  const p = pattern ?? '';
  if (isDeny(p)) return !globMatches(p.slice(1), value);
  if (p === '*') return true;
  return globMatches(p, value);
}

/**
 * Whether the project permits the destination. Give the destination as Argo CD resolves it: both the
 * cluster's `name` and its `server` when known (an Application naming a cluster is matched by either).
 *
 * Argo CD v3.6.1's `isDestinationMatched`, rule for rule: an entry allows when its server or name
 * and its namespace match. A `!` entry refuses only in the two cases Argo CD checks: a cluster deny
 * (`name: '!x'` or `server: '!x'`) whose namespace matches, and a namespace deny whose *server*
 * matches. So `{ name: '*', namespace: '!kube-system' }` refuses nothing (its server is empty and
 * matches no server), and `{ name: '!edge', namespace: 'other' }` does not refuse edge's `checkout`.
 *
 * @public
 */
export function appProjectPermits(
  project: Pick<AppProjectFacts, 'destinations'>,
  destination: ArgoDestination,
): boolean {
  const namespace = destination.namespace ?? '';
  let anyMatched = false;
  for (const item of project.destinations ?? []) {
    const nameMatched =
      !!destination.name && patternMatches(item.name, destination.name);
    const serverMatched =
      !!destination.server && patternMatches(item.server, destination.server);
    const namespaceMatched = patternMatches(item.namespace, namespace);
    if ((nameMatched || serverMatched) && namespaceMatched) {
      anyMatched = true;
    } else if (
      ((!nameMatched && isDeny(item.name)) ||
        (!serverMatched && isDeny(item.server))) &&
      namespaceMatched
    ) {
      return false;
    } else if (!namespaceMatched && isDeny(item.namespace) && serverMatched) {
      return false;
    }
  }
  return anyMatched;
}

function pathMatches(pattern: string, value: string): boolean {
  const source = patternSource(pattern, PATH_MATCH);
  return source !== undefined && new RegExp(`^${source}$`, 's').test(value);
}

function inRestrictionList(
  list: readonly ClusterResourceRestriction[],
  resource: { group: string; kind: string },
  name: string,
): boolean {
  return list.some(
    item =>
      pathMatches(item.kind ?? '', resource.kind) &&
      pathMatches(item.group ?? '', resource.group) &&
      (!item.name || pathMatches(item.name, name)),
  );
}

/**
 * Whether the project lets Argo CD sync a cluster-scoped object (Argo CD v3.6.1's
 * IsGroupKindNamePermitted for a cluster-scoped kind): on `spec.clusterResourceWhitelist` (an empty
 * one allows none) and not on `spec.clusterResourceBlacklist`. Kinds, groups and names are matched
 * as Go's path.Match patterns.
 *
 * @public
 */
export function appProjectPermitsClusterResource(
  project: Pick<
    AppProjectFacts,
    'clusterResourceWhitelist' | 'clusterResourceBlacklist'
  >,
  resource: { group: string; kind: string },
  name: string,
): boolean {
  const white = project.clusterResourceWhitelist ?? [];
  const black = project.clusterResourceBlacklist ?? [];
  return (
    white.length > 0 &&
    inRestrictionList(white, resource, name) &&
    !(black.length > 0 && inRestrictionList(black, resource, name))
  );
}

const restrictions = (
  list: ClusterResourceRestriction[] | undefined,
): ClusterResourceRestriction[] | undefined =>
  list?.length
    ? list.map(r => ({
        group: r.group ?? '',
        kind: r.kind ?? '',
        ...(r.name ? { name: r.name } : {}),
      }))
    : undefined;

/**
 * The project as the check reads it, from an AppProject object (null-safe on every field).
 *
 * @public
 */
export function appProjectFacts(object: {
  metadata?: { name?: string };
  spec?: {
    destinations?: ArgoDestination[];
    permitOnlyProjectScopedClusters?: boolean;
    clusterResourceWhitelist?: ClusterResourceRestriction[];
    clusterResourceBlacklist?: ClusterResourceRestriction[];
  };
}): AppProjectFacts {
  return {
    name: object.metadata?.name ?? '',
    destinations: (object.spec?.destinations ?? []).map(d => ({
      ...(d.server ? { server: d.server } : {}),
      ...(d.name ? { name: d.name } : {}),
      ...(d.namespace !== undefined ? { namespace: d.namespace } : {}),
    })),
    permitOnlyProjectScopedClusters:
      object.spec?.permitOnlyProjectScopedClusters || undefined,
    clusterResourceWhitelist: restrictions(
      object.spec?.clusterResourceWhitelist,
    ),
    clusterResourceBlacklist: restrictions(
      object.spec?.clusterResourceBlacklist,
    ),
  };
}
