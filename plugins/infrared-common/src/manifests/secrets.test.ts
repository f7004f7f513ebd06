import { argoClusterSecret, kubeconfigSecret, secretStrings } from './secrets';

const owner = {
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Cluster',
  name: 'edge',
  uid: 'u1',
  controller: true,
};

describe('argoClusterSecret', () => {
  it('builds cluster-<name> in argocd with the secret-type and managed-by labels', () => {
    const secret = argoClusterSecret({
      clusterName: 'edge',
      server: 'https://203.0.113.10:6443//',
      argoConfig: {
        bearerToken: 't',
        tlsClientConfig: { insecure: false, caData: 'Q0E=' },
      },
      ownerReferences: [owner],
    });
    expect(secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'cluster-edge',
        namespace: 'argocd',
        labels: {
          'argocd.argoproj.io/secret-type': 'cluster',
          'app.kubernetes.io/managed-by': 'infrared',
        },
        ownerReferences: [owner],
      },
      type: 'Opaque',
      stringData: {
        name: 'edge',
        server: 'https://203.0.113.10:6443',
        config:
          '{"bearerToken":"t","tlsClientConfig":{"insecure":false,"caData":"Q0E="}}',
      },
    });
  });

  it('lets the caller set managed-by and the namespace, but never the secret type', () => {
    const secret = argoClusterSecret({
      clusterName: 'child',
      server: 'https://h',
      argoConfig: { tlsClientConfig: { insecure: true } },
      labels: {
        'app.kubernetes.io/managed-by': 'cluster-registrar',
        'argocd.argoproj.io/secret-type': 'repository',
      },
      annotations: { a: 'b' },
      namespace: 'gitops',
    });
    expect(secret.metadata).toEqual({
      name: 'cluster-child',
      namespace: 'gitops',
      labels: {
        'app.kubernetes.io/managed-by': 'cluster-registrar',
        'argocd.argoproj.io/secret-type': 'cluster',
      },
      annotations: { a: 'b' },
    });
  });
});

describe('kubeconfigSecret', () => {
  it('builds cluster-<name>-kubeconfig in infrared with key kubeconfig', () => {
    const secret = kubeconfigSecret({
      clusterName: 'edge',
      kubeconfig: 'apiVersion: v1\n',
    });
    expect(secret.metadata).toMatchObject({
      name: 'cluster-edge-kubeconfig',
      namespace: 'infrared',
    });
    expect(secret.metadata.labels?.['infrared.darkshift.io/cluster']).toBe(
      'edge',
    );
    expect(secret.stringData).toEqual({ kubeconfig: 'apiVersion: v1\n' });
  });
});

describe('secretStrings', () => {
  it('decodes base64 data as UTF-8, stringData winning', () => {
    const data = {
      name: btoa('edge'),
      config: Buffer.from('{"é":1}').toString('base64'),
    };
    expect(secretStrings({ data, stringData: { name: 'new' } })).toEqual({
      name: 'new',
      config: '{"é":1}',
    });
  });
});
