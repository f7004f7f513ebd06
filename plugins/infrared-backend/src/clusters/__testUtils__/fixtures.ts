import { stringify } from 'yaml';
import {
  INFRARED_API_VERSION,
  INFRARED_NAMESPACE,
  kubeconfigSecret,
  type ClusterResource,
  type ClusterSpec,
  type ClusterStatus,
  type ObjectMeta,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';

export const CA = 'Q0EtUEVN';
export const CERT = 'Q0VSVC1QRU0=';
export const KEY = 'S0VZLVBFTQ==';
export const TOKEN = 'secret-token-do-not-leak-0123456789';
export const SERVER = 'https://203.0.113.10:6443';

/** A kubeconfig with one cluster and one user, as kubectl writes it. */
export function kubeconfigText(
  user: Record<string, unknown> = { token: TOKEN },
  cluster: Record<string, unknown> = {
    server: SERVER,
    'certificate-authority-data': CA,
  },
): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'edge', cluster }],
    users: [{ name: 'admin', user }],
    contexts: [{ name: 'edge', context: { cluster: 'edge', user: 'admin' } }],
    'current-context': 'edge',
  });
}

let uidCounter = 0;
export function uid(): string {
  uidCounter++;
  return `00000000-0000-4000-8000-${String(uidCounter).padStart(12, '0')}`;
}

/** A Cluster as the API server returns it. */
export function clusterResource(
  name: string,
  options: {
    spec?: Partial<ClusterSpec>;
    status?: ClusterStatus;
    metadata?: Partial<ObjectMeta>;
  } = {},
): ClusterResource {
  return {
    apiVersion: INFRARED_API_VERSION,
    kind: 'Cluster',
    metadata: {
      name,
      uid: uid(),
      generation: 1,
      resourceVersion: '100',
      creationTimestamp: '2026-01-01T00:00:00Z',
      ...options.metadata,
    },
    spec: {
      type: 'workload',
      connection: {
        kubeconfigSecretRef: {
          name: `cluster-${name}-kubeconfig`,
          key: 'kubeconfig',
        },
      },
      ...options.spec,
    },
    ...(options.status ? { status: options.status } : {}),
  };
}

/** A Secret as the API server returns it: base64 data, no stringData. */
export function stored(secret: SecretObject, meta: Partial<ObjectMeta> = {}) {
  const data: Record<string, string> = { ...secret.data };
  for (const [k, v] of Object.entries(secret.stringData ?? {})) {
    data[k] = Buffer.from(v).toString('base64');
  }
  const { stringData: _s, ...rest } = secret;
  return {
    ...rest,
    data,
    metadata: {
      uid: uid(),
      resourceVersion: '200',
      ...secret.metadata,
      ...meta,
    },
  } as SecretObject;
}

/** The kubeconfig Secret of `name` as stored, optionally with other metadata. */
export function storedKubeconfigSecret(
  name: string,
  text: string = kubeconfigText(),
  meta: Partial<ObjectMeta> = {},
): SecretObject {
  return stored(kubeconfigSecret({ clusterName: name, kubeconfig: text }), {
    namespace: INFRARED_NAMESPACE,
    ...meta,
  });
}
