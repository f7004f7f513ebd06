import { stringify } from 'yaml';
import {
  resolveRegistrarOptions,
  type RegistrarInput,
  type RegistrarOptions,
} from '../options';
import type { NamespaceObject, RegistrarSecret } from '../types';

export const PREFIX = 'argocd-cluster-registrar/';
export const MANAGED_BY = `${PREFIX}managed-by`;
export const CLUSTER = `${PREFIX}cluster`;
export const SOURCE_NS = `${PREFIX}source-namespace`;
export const SOURCE_UID = `${PREFIX}source-namespace-uid`;
export const PROVIDER = `${PREFIX}provider`;
export const ORPHANED = `${PREFIX}orphaned-secret-type`;
export const SUPERSEDED = `${PREFIX}superseded-by`;
export const STALE = `${PREFIX}stale-since`;
export const PRUNE = `${PREFIX}prune`;
export const SECRET_TYPE = 'argocd.argoproj.io/secret-type';

/** A real self-signed certificate, notAfter 2036-11-26T22:36:47Z. */
export const CERT_PEM = `-----BEGIN CERTIFICATE-----
MIIBjTCCATOgAwIBAgIUMDxCvDmyPpa+nU6FOZs2SBWW8jswCgYIKoZIzj0EAwIw
HDEaMBgGA1UEAwwRcmVnaXN0cmFyLWZpeHR1cmUwHhcNMjYxMTI5MjIzNjQ3WhcN
MzYxMTI2MjIzNjQ3WjAcMRowGAYDVQQDDBFyZWdpc3RyYXItZml4dHVyZTBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABPrDUTJ8wmpzFzhSDjDdWUcXUlpUsMInKfT8
U7x56C25wzzHl54G04W26Ak4+5D1Ya6sbMqQofAZrH+DSEUsHCajUzBRMB0GA1Ud
DgQWBBQw9wSdvLQukcGe6mw+A05o4vo1MjAfBgNVHSMEGDAWgBQw9wSdvLQukcGe
6mw+A05o4vo1MjAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQC8
ZsB2lCQVHEDkGsG49yECLwqtcLAJHifZU414TCw9OgIgPHyLGfigAsIqBYaRalw8
JkWSD7IvsieN78l0/3EgULA=
-----END CERTIFICATE-----
`;
export const CERT_NOT_AFTER = new Date('2036-11-26T22:36:47Z');
export const CERT_DATA = Buffer.from(CERT_PEM).toString('base64');
export const KEY_DATA = Buffer.from('KEY-PEM').toString('base64');
export const CA_DATA = Buffer.from('CA-PEM').toString('base64');

export const NOW = new Date('2026-08-07T14:30:00Z');

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A kubeconfig like k3k and vcluster write: one cluster, one user, one context. */
export function kubeconfig(
  opts: {
    server?: string;
    token?: string;
    cert?: string;
    key?: string;
    ca?: string | null;
    insecure?: boolean;
    exec?: Record<string, unknown>;
    user?: Record<string, unknown>;
  } = {},
): string {
  const cluster: Record<string, unknown> = {
    server: opts.server ?? 'https://10.0.0.1:6443',
  };
  if (opts.ca !== null)
    cluster['certificate-authority-data'] = opts.ca ?? CA_DATA;
  if (opts.insecure) cluster['insecure-skip-tls-verify'] = true;
  const user: Record<string, unknown> = opts.user ?? {};
  if (!opts.user) {
    if (opts.exec) user.exec = opts.exec;
    else if (opts.token) user.token = opts.token;
    else {
      user['client-certificate-data'] = opts.cert ?? CERT_DATA;
      user['client-key-data'] = opts.key ?? KEY_DATA;
    }
  }
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'default', cluster }],
    users: [{ name: 'default', user }],
    contexts: [
      { name: 'default', context: { cluster: 'default', user: 'default' } },
    ],
    'current-context': 'default',
  });
}

export function options(input: RegistrarInput = {}): RegistrarOptions {
  return resolveRegistrarOptions(input).options;
}

export const uidOf = (name: string) => `uid-${name}`;

/** A managed namespace claiming `cluster` (or none when null). */
export function ns(
  name: string,
  opts: {
    cluster?: string | null;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    uid?: string;
    created?: string;
    deleting?: boolean;
    managedBy?: string | null;
  } = {},
): NamespaceObject {
  const labels: Record<string, string> = {};
  if (opts.managedBy !== null)
    labels[MANAGED_BY] = opts.managedBy ?? 'cluster-registrar';
  if (opts.cluster !== null) labels[CLUSTER] = opts.cluster ?? name;
  Object.assign(labels, opts.labels);
  return {
    metadata: {
      name,
      uid: opts.uid ?? uidOf(name),
      labels,
      ...(opts.annotations ? { annotations: opts.annotations } : {}),
      creationTimestamp: opts.created ?? '2026-01-01T00:00:00Z',
      ...(opts.deleting ? { deletionTimestamp: '2026-08-07T14:00:00Z' } : {}),
    },
  };
}

/** A Secret in a source namespace; `data` values are plain text. */
export function source(
  namespace: string,
  name: string,
  data: Record<string, string>,
  opts: { type?: string; controller?: boolean } = {},
): RegistrarSecret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name,
      namespace,
      uid: `uid-${namespace}-${name}`,
      ...(opts.controller
        ? {
            ownerReferences: [
              {
                apiVersion: 'k3k.io/v1alpha1',
                kind: 'Cluster',
                name,
                uid: 'owner',
                controller: true,
              },
            ],
          }
        : {}),
    },
    type: opts.type ?? 'Opaque',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

/** A k3k-style kubeconfig Secret `k3k-<name>-kubeconfig`, key kubeconfig.yaml. */
export const k3kSecret = (
  namespace: string,
  name: string,
  text = kubeconfig(),
) => source(namespace, `k3k-${name}-kubeconfig`, { 'kubeconfig.yaml': text });

/** A Secret in the target namespace (argocd); `data` values are plain text. */
export function argo(
  name: string,
  opts: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    data?: Record<string, string>;
    uid?: string;
    resourceVersion?: string;
    namespace?: string;
    finalizers?: string[];
  } = {},
): RegistrarSecret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name,
      namespace: opts.namespace ?? 'argocd',
      uid: opts.uid ?? `uid-${name}`,
      resourceVersion: opts.resourceVersion ?? '100',
      labels: opts.labels ?? {},
      ...(opts.annotations ? { annotations: opts.annotations } : {}),
      ...(opts.finalizers ? { finalizers: opts.finalizers } : {}),
    },
    type: 'Opaque',
    data: Object.fromEntries(
      Object.entries(opts.data ?? {}).map(([k, v]) => [k, b64(v)]),
    ),
  };
}

/** The labels an owned registration of `cluster` from `namespace` carries. */
export function ownedLabels(
  cluster: string,
  namespace: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    [SECRET_TYPE]: 'cluster',
    [MANAGED_BY]: 'cluster-registrar',
    [CLUSTER]: cluster,
    [SOURCE_NS]: namespace,
    [SOURCE_UID]: uidOf(namespace),
    [PROVIDER]: 'k3k',
    ...extra,
  };
}

/** Plain text of one data key. */
export const text = (s: RegistrarSecret | undefined, key: string) =>
  s?.stringData?.[key] ??
  (s?.data?.[key] !== undefined
    ? Buffer.from(s.data[key], 'base64').toString('utf8')
    : undefined);
