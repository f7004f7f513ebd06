import { stringify } from 'yaml';

/** Test helper: a kubeconfig with one context per cluster/user pair, as kubectl writes it. */
export function kubeconfigYaml(options: {
  clusters?: Array<{ name: string; cluster: Record<string, unknown> }>;
  users?: Array<{ name: string; user: Record<string, unknown> }>;
  contexts?: Array<{
    name: string;
    context: { cluster: string; user: string };
  }>;
  currentContext?: string;
  extra?: Record<string, unknown>;
}): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: options.clusters,
    users: options.users,
    contexts: options.contexts,
    'current-context': options.currentContext,
    ...options.extra,
  });
}

export const CA = 'Q0EtUEVN';
export const CERT = 'Q0VSVC1QRU0=';
export const KEY = 'S0VZLVBFTQ==';

/** One cluster `edge` with one user carrying `user`, and a current context naming both. */
export function single(
  user: Record<string, unknown>,
  cluster: Record<string, unknown> = {
    server: 'https://203.0.113.10:6443',
    'certificate-authority-data': CA,
  },
): string {
  return kubeconfigYaml({
    clusters: [{ name: 'edge', cluster }],
    users: [{ name: 'admin', user }],
    contexts: [{ name: 'edge', context: { cluster: 'edge', user: 'admin' } }],
    currentContext: 'edge',
  });
}
