import type { DiscoveredChild } from '../discover';
import {
  ARGO_SECRET_TYPE_CLUSTER,
  ARGO_SECRET_TYPE_LABEL,
  byteOrder,
  PRUNE_DISABLED,
} from '../labels';
import { secretServer } from '../secrets';
import type { NamespaceObject, RegistrarSecret } from '../types';
import type { PlanState } from './state';

const UNKNOWN = Symbol('unknown');

/**
 * The namespace that wins an unheld cluster name over the child's, if another does: the oldest
 * non-terminating claimant; an exact tie goes to the smaller name.
 */
export function contestedBy(
  state: PlanState,
  child: DiscoveredChild,
): string | undefined {
  const { keys, options } = state;
  let winner: NamespaceObject | undefined;
  const at = (ns: NamespaceObject) =>
    Date.parse(ns.metadata.creationTimestamp ?? '') || 0;
  for (const ns of state.claimants.get(child.cluster) ?? []) {
    if (ns.metadata.labels?.[keys.managedBy] !== options.managedBy) continue;
    if (ns.metadata.deletionTimestamp) continue;
    if (
      !winner ||
      at(ns) < at(winner) ||
      (at(ns) === at(winner) &&
        byteOrder(ns.metadata.name, winner.metadata.name) < 0)
    ) {
      winner = ns;
    }
  }
  return winner && winner.metadata.name !== child.namespace
    ? winner.metadata.name
    : undefined;
}

/** The Argo CD cluster Secret already holding the child's server, if any may keep it. */
function serverHolder(
  state: PlanState,
  child: DiscoveredChild,
  self?: string,
): RegistrarSecret | undefined | typeof UNKNOWN {
  const { keys } = state;
  for (const s of state.holdingServer(child.server)) {
    const labels = s.metadata.labels ?? {};
    if (s.metadata.name === self) continue;
    if (labels[ARGO_SECRET_TYPE_LABEL] !== ARGO_SECRET_TYPE_CLUSTER) continue;
    const src = labels[keys.sourceNamespace] ?? '';
    if (src && src === child.namespace) continue;
    if (labels[keys.orphanedSecretType]) continue;
    if (secretServer(s) !== child.server) continue;
    if (!state.isPinned(s) && src) {
      const known = state.namespaceState(src);
      if (known.kind === 'unknown') return UNKNOWN;
      if (known.kind === 'gone') {
        state.log(
          'info',
          "incumbent registration's source namespace is gone; releasing its address",
          { secret: s.metadata.name, namespace: src, server: child.server },
        );
        continue;
      }
    }
    return s;
  }
  return undefined;
}

/** Refuses (and says why) when the server is held; false when the plan must wait for a lookup. */
export function serverFree(
  state: PlanState,
  child: DiscoveredChild,
  self?: string,
): boolean {
  const holder = serverHolder(state, child, self);
  if (holder === UNKNOWN) return false;
  if (!holder) return true;
  const { keys } = state;
  const src = holder.metadata.labels?.[keys.sourceNamespace];
  const hint = state.isPinned(holder)
    ? `The incumbent is pinned with ${keys.prune}=${PRUNE_DISABLED}; remove that label to let it be replaced`
    : "To scope one cluster several ways, use a single registration with Argo CD's `namespaces` key, or AppProject destination service accounts";
  state.conflict(
    'server_collision',
    child,
    `server ${child.server} is already registered as ${
      holder.metadata.name
    } (from ${
      src || 'outside this registrar'
    }); refusing to register it again as ${child.cluster} from ${
      child.namespace
    }, because Argo CD identifies a cluster by its address. ${hint}`,
  );
  return false;
}
