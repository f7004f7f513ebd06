import { KubeConfig } from '@kubernetes/client-node';
import YAML from 'yaml';

/**
 * One identity on one API server, with inline PEM data: a client certificate or a bearer token.
 * What devenv hands its tests, and what `renderKubeconfig` writes.
 *
 * @public
 */
export interface KubeAccess {
  server: string;
  /** The cluster's CA certificate (PEM). */
  caData: string;
  certData?: string;
  keyData?: string;
  token?: string;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s?: string) =>
  s ? Buffer.from(s, 'base64').toString('utf8') : undefined;

/**
 * Renders a kubeconfig YAML with inline data for one cluster and one user (`<name>-<user>`).
 *
 * @public
 */
export function renderKubeconfig(
  name: string,
  access: KubeAccess,
  user = 'admin',
): string {
  const u: Record<string, string> = {};
  if (access.token) u.token = access.token;
  if (access.certData) u['client-certificate-data'] = b64(access.certData);
  if (access.keyData) u['client-key-data'] = b64(access.keyData);
  return YAML.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name,
        cluster: {
          server: access.server,
          'certificate-authority-data': b64(access.caData),
        },
      },
    ],
    users: [{ name: `${name}-${user}`, user: u }],
    contexts: [{ name, context: { cluster: name, user: `${name}-${user}` } }],
    'current-context': name,
  });
}

/**
 * Makes the first context current when a kubeconfig names none (as devenv's parser always did).
 *
 * @public
 */
export function withCurrentContext(kubeConfig: KubeConfig): KubeConfig {
  if (!kubeConfig.getCurrentContext() && kubeConfig.contexts.length) {
    kubeConfig.setCurrentContext(kubeConfig.contexts[0].name);
  }
  return kubeConfig;
}

/**
 * The current context of a KubeConfig as inline data (its first context when none is current).
 *
 * @public
 */
export function kubeAccessOf(kubeConfig: KubeConfig): KubeAccess {
  withCurrentContext(kubeConfig);
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const user = kubeConfig.getCurrentUser();
  return {
    server: cluster.server,
    caData: unb64(cluster.caData)!,
    certData: unb64(user?.certData),
    keyData: unb64(user?.keyData),
    token: user?.token,
  };
}

/**
 * Reads the current context of a kubeconfig that carries inline data (through client-node's parser).
 *
 * @public
 */
export function parseKubeconfig(text: string): KubeAccess {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(text);
  return kubeAccessOf(kubeConfig);
}

/**
 * A KubeConfig for one identity given as inline data.
 *
 * @public
 */
export function kubeConfigFromAccess(access: KubeAccess): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(renderKubeconfig('cluster', access));
  return kubeConfig;
}
