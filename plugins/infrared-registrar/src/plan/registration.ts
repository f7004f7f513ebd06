import {
  argoClusterSecret,
  MANAGED_BY_LABEL,
  type ArgoClusterConfig,
} from '@infrared-clusters/plugin-infrared-common';
import type { DiscoveredChild } from '../discover';
import { registrarKeys } from '../labels';
import type { RegistrarOptions } from '../options';
import { b64, cloneSecret, secretValue } from '../secrets';
import type { RegistrarSecret } from '../types';

/**
 * The registration `cluster-<name>` as this registrar writes it for a child.
 *
 * @public
 */
export function desiredClusterSecret(
  child: DiscoveredChild,
  options: RegistrarOptions,
): RegistrarSecret {
  const keys = registrarKeys(options.labelPrefix);
  const secret = argoClusterSecret({
    clusterName: child.cluster,
    server: child.server,
    // The config is already in stable bytes; argoClusterSecret serialises it again the same way.
    argoConfig: JSON.parse(child.config) as ArgoClusterConfig,
    namespace: options.targetNamespace,
    labels: {
      [keys.managedBy]: options.managedBy,
      [keys.cluster]: child.cluster,
      [keys.sourceNamespace]: child.namespace,
      ...(child.namespaceUid
        ? { [keys.sourceNamespaceUid]: child.namespaceUid }
        : {}),
      [keys.provider]: child.provider,
      // Last, as upstream; they can't reach a reserved key (propagatedLabels withholds those).
      ...child.labels,
    },
    annotations: child.annotations,
  });
  // Infrared's own registrations carry app.kubernetes.io/managed-by=infrared; these are the
  // registrar's, owned through <prefix>managed-by alone, as upstream writes them.
  const labels = { ...secret.metadata.labels };
  delete labels[MANAGED_BY_LABEL];
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { ...secret.metadata, labels },
    type: secret.type,
    stringData: { ...secret.stringData! },
  };
}

/** A prefixed key this registrar no longer wants (the pin is the user's, never swept). */
const isStale = (
  key: string,
  want: Record<string, string>,
  labelPrefix: string,
) =>
  key.startsWith(labelPrefix) &&
  key !== registrarKeys(labelPrefix).prune &&
  !(key in want);

/** Whether `have` lacks a wanted value, or keeps a stale prefixed key. */
function mapChanged(
  have: Record<string, string>,
  want: Record<string, string>,
  labelPrefix: string,
): boolean {
  for (const [k, v] of Object.entries(want)) if (have[k] !== v) return true;
  return Object.keys(have).some(k => isStale(k, want, labelPrefix));
}

/**
 * Whether the live Secret differs from what would be written: name/server/config bytes, wanted
 * labels, stray prefixed labels (the pin excepted), and annotations both ways.
 */
export function registrationChanged(
  existing: RegistrarSecret,
  desired: RegistrarSecret,
  labelPrefix: string,
): boolean {
  for (const [k, v] of Object.entries(desired.stringData ?? {})) {
    if (secretValue(existing, k) !== v) return true;
  }
  return (
    mapChanged(
      existing.metadata.labels ?? {},
      desired.metadata.labels ?? {},
      labelPrefix,
    ) ||
    mapChanged(
      existing.metadata.annotations ?? {},
      desired.metadata.annotations ?? {},
      labelPrefix,
    )
  );
}

/**
 * Read-modify-write: the live object with our keys set and stale prefixed keys swept. Everything
 * else — Argo CD's `namespaces`/`project`/`clusterResources`, foreign labels and annotations,
 * finalizers, owner references — is carried over; the resourceVersion is the precondition.
 */
export function mergeRegistration(
  existing: RegistrarSecret,
  desired: RegistrarSecret,
  labelPrefix: string,
): RegistrarSecret {
  const updated = cloneSecret(existing);
  delete updated.stringData;
  updated.data = { ...(existing.data ?? {}) };
  for (const [k, v] of Object.entries(desired.stringData ?? {})) {
    updated.data[k] = b64(v);
  }
  const sweep = (
    have: Record<string, string> | undefined,
    want: Record<string, string>,
  ) => {
    const out = { ...(have ?? {}), ...want };
    for (const k of Object.keys(out)) {
      if (isStale(k, want, labelPrefix)) delete out[k];
    }
    return out;
  };
  updated.metadata.labels = sweep(
    existing.metadata.labels,
    desired.metadata.labels ?? {},
  );
  const annotations = sweep(
    existing.metadata.annotations,
    desired.metadata.annotations ?? {},
  );
  if (Object.keys(annotations).length || existing.metadata.annotations) {
    updated.metadata.annotations = annotations;
  }
  return updated;
}
