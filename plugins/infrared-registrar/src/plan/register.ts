import type { DiscoveredChild } from '../discover';
import { secretServer } from '../secrets';
import type { RegistrarSecret } from '../types';
import { contestedBy, serverFree } from './claims';
import {
  desiredClusterSecret,
  mergeRegistration,
  registrationChanged,
} from './registration';
import type { PlanState } from './state';

/** A new registration, unless an older namespace claims the name or the server is held. */
function planCreate(
  state: PlanState,
  child: DiscoveredChild,
  desired: RegistrarSecret,
): string | undefined {
  const winner = contestedBy(state, child);
  if (winner) {
    state.conflict(
      'contested_name',
      child,
      `cluster "${child.cluster}" is also claimed by namespace ${winner}, which is older; not registering it from ${child.namespace}`,
    );
    return undefined;
  }
  if (!serverFree(state, child)) return undefined;
  state.act({
    type: 'create',
    namespace: child.namespace,
    cluster: child.cluster,
    server: child.server,
    secret: desired,
  });
  return desired.metadata.name;
}

/**
 * Whether the child may write the existing Secret of its name: it must be owned, and record the
 * child's namespace (or none, and name the child's cluster: an adoption). Undefined when refused.
 */
function claimExisting(
  state: PlanState,
  child: DiscoveredChild,
  existing: RegistrarSecret,
): { adoption: boolean } | undefined {
  const { keys, options } = state;
  const labels = existing.metadata.labels ?? {};
  const at = `${options.targetNamespace}/${existing.metadata.name}`;
  if (labels[keys.managedBy] !== options.managedBy) {
    state.conflict(
      'not_managed',
      child,
      `secret ${at} is not managed by this registrar (${
        keys.managedBy
      }=${JSON.stringify(
        labels[keys.managedBy] ?? '',
      )}); refusing to take it over for namespace ${
        child.namespace
      }. Rename the cluster, or delete the secret if it is genuinely stale`,
    );
    return undefined;
  }
  const src = labels[keys.sourceNamespace] ?? '';
  if (src === child.namespace) return { adoption: false };
  if (src !== '') {
    state.conflict(
      'incumbent',
      child,
      `cluster "${child.cluster}" is registered from namespace ${src}; refusing to take it over for ${child.namespace}. Two namespaces must not claim one cluster name`,
    );
    return undefined;
  }
  if (labels[keys.cluster] !== child.cluster) {
    state.conflict(
      'orphan_cluster_mismatch',
      child,
      `secret ${at} is owned but records no source namespace, and its ${
        keys.cluster
      } label is ${JSON.stringify(
        labels[keys.cluster] ?? '',
      )} rather than ${JSON.stringify(
        child.cluster,
      )}; refusing to adopt it for namespace ${child.namespace}`,
    );
    return undefined;
  }
  return { adoption: true };
}

/** An update of a claimed Secret when it differs; refused when its new server is held. */
function planUpdate(
  state: PlanState,
  child: DiscoveredChild,
  existing: RegistrarSecret,
  desired: RegistrarSecret,
  adoption: boolean,
): string | undefined {
  const name = existing.metadata.name;
  const { labelPrefix } = state.options;
  if (!registrationChanged(existing, desired, labelPrefix)) {
    state.log('debug', 'cluster secret already up to date', {
      cluster: child.cluster,
      namespace: child.namespace,
    });
    return name;
  }
  const was = secretServer(existing);
  if (was !== child.server) {
    if (!serverFree(state, child, name)) return undefined;
    state.log(
      'warn',
      'cluster address changed; Argo CD may keep watching the old one until its application controller restarts',
      { cluster: child.cluster, from: was, to: child.server },
    );
  }
  if (adoption) {
    state.adoptions++;
    state.log(
      'warn',
      'adopting an owned cluster secret that records no source namespace',
      {
        secret: name,
        cluster: child.cluster,
        namespace: child.namespace,
        label: state.keys.sourceNamespace,
      },
    );
  }
  state.act({
    type: 'update',
    namespace: child.namespace,
    cluster: child.cluster,
    server: child.server,
    secret: mergeRegistration(existing, desired, labelPrefix),
    adoption,
  });
  return name;
}

/** Plans the child's registration; its Secret's name when the namespace now holds it. */
export function planRegistration(
  state: PlanState,
  child: DiscoveredChild,
): string | undefined {
  const desired = desiredClusterSecret(child, state.options);
  const existing = state.target.get(desired.metadata.name);
  if (!existing) return planCreate(state, child, desired);
  const claim = claimExisting(state, child, existing);
  if (!claim) return undefined;
  return planUpdate(state, child, existing, desired, claim.adoption);
}
