/*
 * Children and their Argo CD cluster Secrets exactly as upstream's argocd-cluster-registrar v0.6.0
 * writes them (shared/design/reference.md A, "Cluster Secret"; its kubeconfig.go's JSON field order),
 * made by the test's admin client: the state a user moving from upstream starts from.
 */
import { parseManifests, type KubeClient } from '@internal/devenv';

export const P = 'argocd-cluster-registrar/';
const b64 = (s: string) => Buffer.from(s).toString('base64');

export interface KubeconfigFacts {
  server: string;
  caData: string;
  certData?: string;
  keyData?: string;
  token?: string;
}

/** The one cluster and user of a kubeconfig, as upstream reads them. */
export function kubeconfigFacts(text: string): KubeconfigFacts {
  const config: any = parseManifests(text)[0];
  const cluster = config.clusters[0].cluster;
  const user = config.users[0].user;
  return {
    server: cluster.server,
    caData: cluster['certificate-authority-data'],
    certData: user['client-certificate-data'],
    keyData: user['client-key-data'],
    token: user.token,
  };
}

/** A token kubeconfig for `server` (a vcluster-style child that no one needs to reach). */
export function tokenChildKubeconfig(facts: KubeconfigFacts): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'vc',
        cluster: {
          server: facts.server,
          'certificate-authority-data': facts.caData,
        },
      },
    ],
    users: [{ name: 'vc', user: { token: facts.token } }],
    contexts: [{ name: 'vc', context: { cluster: 'vc', user: 'vc' } }],
    'current-context': 'vc',
  });
}

/** `config` as upstream's kubeconfig.go marshals it: bearerToken, then tlsClientConfig's fields in order. */
export function upstreamConfig(facts: KubeconfigFacts): string {
  const tls: Record<string, unknown> = {
    insecure: false,
    caData: facts.caData,
  };
  if (facts.certData && facts.keyData) {
    tls.certData = facts.certData;
    tls.keyData = facts.keyData;
    return JSON.stringify({ tlsClientConfig: tls });
  }
  return JSON.stringify({ bearerToken: facts.token, tlsClientConfig: tls });
}

export interface Child {
  namespace: string;
  cluster: string;
  provider: 'k3k' | 'vcluster';
  kubeconfig: string;
  /** Labels of the namespace beyond managed-by and cluster (prefixed ones are copied). */
  labels?: Record<string, string>;
}

/** The child's namespace, labelled, and its provisioner's kubeconfig Secret; the namespace's uid. */
export async function createChild(
  admin: KubeClient,
  managedBy: string,
  child: Child,
): Promise<string> {
  const ns = await admin.must('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: child.namespace,
      labels: {
        [`${P}managed-by`]: managedBy,
        [`${P}cluster`]: child.cluster,
        ...child.labels,
      },
    },
  });
  const [name, key] =
    child.provider === 'k3k'
      ? [`k3k-${child.cluster}-kubeconfig`, 'kubeconfig.yaml']
      : [`vc-${child.cluster}`, 'config'];
  await admin.must('POST', `/api/v1/namespaces/${child.namespace}/secrets`, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: child.namespace },
    data: { [key]: b64(child.kubeconfig) },
  });
  return ns.body.metadata.uid;
}

/** The cluster Secret upstream wrote for `child` in `target`, as upstream writes it (stringData). */
export function upstreamClusterSecret(
  target: string,
  managedBy: string,
  child: Child,
  namespaceUid: string,
) {
  const facts = kubeconfigFacts(child.kubeconfig);
  const copied = Object.fromEntries(
    Object.entries(child.labels ?? {}).filter(([k]) => k.startsWith(P)),
  );
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `cluster-${child.cluster}`,
      namespace: target,
      labels: {
        'argocd.argoproj.io/secret-type': 'cluster',
        [`${P}managed-by`]: managedBy,
        [`${P}cluster`]: child.cluster,
        [`${P}source-namespace`]: child.namespace,
        [`${P}source-namespace-uid`]: namespaceUid,
        [`${P}provider`]: child.provider,
        ...copied,
      },
    },
    type: 'Opaque',
    stringData: {
      name: child.cluster,
      server: facts.server.replace(/\/+$/, ''),
      config: upstreamConfig(facts),
    },
  };
}
