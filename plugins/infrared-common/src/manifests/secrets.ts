import {
  ARGOCD_NAMESPACE,
  ARGOCD_SECRET_TYPE_LABEL,
  argoSecretName,
  INFRARED_GROUP,
  INFRARED_NAMESPACE,
  KUBECONFIG_SECRET_KEY,
  kubeconfigSecretName,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
} from '../clusters/names';
import type { ObjectMeta, OwnerReference } from '../clusters/types';
import { serializeArgoConfig } from '../kubeconfig/argoConfig';
import type { ArgoClusterConfig } from '../kubeconfig/types';

/** @public */
export interface SecretObject {
  apiVersion: 'v1';
  kind: 'Secret';
  metadata: ObjectMeta;
  type: string;
  stringData?: Record<string, string>;
  data?: Record<string, string>;
}

/**
 * Label on the Secrets Infrared writes for a Cluster, naming it.
 *
 * @public
 */
export const CLUSTER_NAME_LABEL = `${INFRARED_GROUP}/cluster`;

/** @public */
export interface ArgoClusterSecretInput {
  clusterName: string;
  server: string;
  argoConfig: ArgoClusterConfig;
  /** Merged over the managed-by label; the Argo CD secret-type label always wins. */
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  /** Default `argocd`; the registrar's target namespace is configurable. */
  namespace?: string;
}

/**
 * The Argo CD cluster Secret `cluster-<name>` that lets Argo CD deploy to a cluster.
 *
 * @public
 */
export function argoClusterSecret(input: ArgoClusterSecretInput): SecretObject {
  const metadata: ObjectMeta = {
    name: argoSecretName(input.clusterName),
    namespace: input.namespace ?? ARGOCD_NAMESPACE,
    labels: {
      [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED,
      ...input.labels,
      [ARGOCD_SECRET_TYPE_LABEL]: 'cluster',
    },
  };
  if (input.annotations && Object.keys(input.annotations).length) {
    metadata.annotations = { ...input.annotations };
  }
  return opaqueSecret(metadata, input.ownerReferences, {
    name: input.clusterName,
    server: trimServer(input.server),
    config: serializeArgoConfig(input.argoConfig),
  });
}

/** An Opaque Secret of `stringData`, owned by `ownerReferences` when there are any. */
function opaqueSecret(
  metadata: ObjectMeta,
  ownerReferences: ObjectMeta['ownerReferences'],
  stringData: Record<string, string>,
): SecretObject {
  if (ownerReferences?.length) metadata.ownerReferences = ownerReferences;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata,
    type: 'Opaque',
    stringData,
  };
}

/**
 * Argo CD keys clusters by the server with trailing slashes trimmed; store it that way too.
 *
 * @public
 */
export function trimServer(server: string): string {
  return server.trim().replace(/\/+$/, '');
}

const utf8 = new TextDecoder();

/** The bytes of base64 text (atob, so it runs in the browser too), without a callback per byte. */
function base64Bytes(value: string): Uint8Array {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** @public */
export interface KubeconfigSecretInput {
  clusterName: string;
  kubeconfig: string;
  ownerReferences?: OwnerReference[];
}

/**
 * The Secret `cluster-<name>-kubeconfig` in namespace `infrared` (key `kubeconfig`).
 *
 * @public
 */
export function kubeconfigSecret(input: KubeconfigSecretInput): SecretObject {
  const metadata: ObjectMeta = {
    name: kubeconfigSecretName(input.clusterName),
    namespace: INFRARED_NAMESPACE,
    labels: {
      [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED,
      [CLUSTER_NAME_LABEL]: input.clusterName,
    },
  };
  return opaqueSecret(metadata, input.ownerReferences, {
    [KUBECONFIG_SECRET_KEY]: input.kubeconfig,
  });
}

/**
 * Decodes a Secret read back from the API server (base64 `data`) into strings, with
 * `stringData` (only present on objects not yet written) taking precedence as the API server does.
 *
 * @public
 */
export function secretStrings(
  secret: Pick<SecretObject, 'data' | 'stringData'>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(secret.data ?? {})) {
    out[key] = utf8.decode(base64Bytes(value));
  }
  return { ...out, ...secret.stringData };
}
