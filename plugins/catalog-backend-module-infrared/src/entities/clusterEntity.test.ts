import { kubeconfigSecret } from '@infrared-clusters/plugin-infrared-common';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import { renderKubeconfig } from '@infrared-clusters/infrared-kube';
import {
  clusterEntity,
  clusterEntityProblem,
  clusterEntityRef,
} from './clusterEntity';
import { childClusterEntity } from './childEntity';
import { clusterEndpoint, type ClusterEndpoint } from './endpoint';

const options = { owner: 'group:default/platform-admins' };
const management: ClusterEndpoint = {
  server: 'https://127.0.0.1:6443',
  caData: 'TUdNVC1DQQ==',
};

function cluster(
  name: string,
  spec: Partial<ClusterResource['spec']> = {},
  status?: ClusterResource['status'],
): ClusterResource {
  return {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: {
      type: 'workload',
      connection: {
        kubeconfigSecretRef: {
          name: `cluster-${name}-kubeconfig`,
          key: 'kubeconfig',
        },
      },
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

const TOKEN = 'token-that-must-never-be-in-an-entity';
const CERT = '-----BEGIN CERTIFICATE-----client-cert-----END CERTIFICATE-----';
const KEY = '-----BEGIN PRIVATE KEY-----client-key-----END PRIVATE KEY-----';
const insecureKubeconfig = (name: string, server: string) => `apiVersion: v1
kind: Config
clusters:
  - name: ${name}
    cluster:
      server: ${server}
      insecure-skip-tls-verify: true
users:
  - name: admin
    user:
      token: ${TOKEN}
contexts:
  - name: ${name}
    context: { cluster: ${name}, user: admin }
current-context: ${name}
`;
const secretFor = (name: string, server: string, insecure = false) => {
  const text = insecure
    ? insecureKubeconfig(name, server)
    : renderKubeconfig(name, {
        server,
        caData: 'CA-PEM',
        token: TOKEN,
        certData: CERT,
        keyData: KEY,
      });
  const secret = kubeconfigSecret({ clusterName: name, kubeconfig: text });
  // as read back from the API server: base64 data, no stringData
  return {
    ...secret,
    stringData: undefined,
    data: { kubeconfig: Buffer.from(text).toString('base64') },
  };
};
const CA_B64 = Buffer.from('CA-PEM').toString('base64');

describe('clusterEntity', () => {
  it.each([
    {
      what: 'a registered workload cluster: server, CA and auth provider for the Kubernetes plugin; Argo CD server and gitops path from its status',
      cluster: cluster(
        'edge-demo',
        { flavor: 'k3s', provider: 'local', region: 'lab' },
        {
          argoServer: 'https://edge.example:6443',
          gitopsPath: 'registry/clusters/edge-demo/components',
          conditions: [
            {
              type: 'Registered',
              status: 'True',
              reason: 'Merged',
              message: '',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      ),
      secret: secretFor('edge-demo', 'https://10.0.0.5:6443'),
      annotations: {
        'kubernetes.io/api-server': 'https://10.0.0.5:6443',
        'kubernetes.io/api-server-certificate-authority': CA_B64,
        'kubernetes.io/auth-provider': 'infrared',
        'infrared.darkshift.io/argocd-server': 'https://edge.example:6443',
        'infrared.darkshift.io/gitops-path':
          'registry/clusters/edge-demo/components',
        'infrared.darkshift.io/registered': 'True',
      },
      labels: {
        'infrared.darkshift.io/type': 'workload',
        'infrared.darkshift.io/flavor': 'k3s',
        'infrared.darkshift.io/provider': 'local',
        'infrared.darkshift.io/region': 'lab',
      },
      tags: ['k3s', 'local'],
      description:
        'k3s workload cluster on local lab, from its Infrared Cluster resource',
    },
    {
      what: 'spec.server overrides the kubeconfig server, as the backend connects',
      cluster: cluster('edge', { server: 'https://edge.internal:6443' }),
      secret: secretFor('edge', 'https://10.0.0.5:6443'),
      annotations: {
        'kubernetes.io/api-server': 'https://edge.internal:6443',
        'kubernetes.io/api-server-certificate-authority': CA_B64,
        'kubernetes.io/auth-provider': 'infrared',
        'infrared.darkshift.io/registered': 'Unknown',
      },
      labels: { 'infrared.darkshift.io/type': 'workload' },
      tags: [],
      description: 'workload cluster, from its Infrared Cluster resource',
    },
    {
      what: 'an unverified server: skip-tls-verify, no CA',
      cluster: cluster('lab'),
      secret: secretFor('lab', 'https://10.0.0.6:6443', true),
      annotations: {
        'kubernetes.io/api-server': 'https://10.0.0.6:6443',
        'kubernetes.io/auth-provider': 'infrared',
        'kubernetes.io/skip-tls-verify': 'true',
        'infrared.darkshift.io/registered': 'Unknown',
      },
      labels: { 'infrared.darkshift.io/type': 'workload' },
      tags: [],
      description: 'workload cluster, from its Infrared Cluster resource',
    },
    {
      what: 'the management cluster (inCluster): the management endpoint',
      cluster: cluster('infrared-mgmt', {
        type: 'management',
        connection: { inCluster: true },
      }),
      secret: undefined,
      annotations: {
        'kubernetes.io/api-server': 'https://127.0.0.1:6443',
        'kubernetes.io/api-server-certificate-authority': 'TUdNVC1DQQ==',
        'kubernetes.io/auth-provider': 'infrared',
        'infrared.darkshift.io/registered': 'Unknown',
      },
      labels: { 'infrared.darkshift.io/type': 'management' },
      tags: [],
      description: 'management cluster, from its Infrared Cluster resource',
    },
    {
      what: 'a Cluster whose kubeconfig Secret is missing: no Kubernetes annotations, still an entity',
      cluster: cluster(
        'pending',
        {},
        {
          conditions: [
            {
              type: 'Registered',
              status: 'False',
              reason: 'KubeconfigSecretMissing',
              message: 'm',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      ),
      secret: undefined,
      annotations: { 'infrared.darkshift.io/registered': 'False' },
      labels: { 'infrared.darkshift.io/type': 'workload' },
      tags: [],
      description: 'workload cluster, from its Infrared Cluster resource',
    },
  ])(
    '$what',
    ({ cluster: c, secret, annotations, labels, tags, description }) => {
      const entity = clusterEntity(
        c,
        clusterEndpoint(c, secret as any, management),
        options,
      );
      const name = c.metadata.name;
      expect(entity).toEqual({
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Resource',
        metadata: {
          name,
          namespace: 'default',
          description,
          labels,
          tags,
          annotations: {
            'backstage.io/managed-by-location': `infrared-clusters:${name}`,
            'backstage.io/managed-by-origin-location': `infrared-clusters:${name}`,
            'infrared.darkshift.io/cluster': name,
            // its Kubernetes tab (issue 23.4): every object on this cluster, on no other
            'backstage.io/kubernetes-cluster': name,
            'backstage.io/kubernetes-label-selector':
              '!infrared.darkshift.io/hide-from-cluster-tab',
            ...annotations,
          },
        },
        spec: {
          type: 'kubernetes-cluster',
          owner: 'group:default/platform-admins',
        },
      });
      const text = JSON.stringify(entity);
      for (const credential of [TOKEN, CERT, KEY]) {
        expect(text).not.toContain(credential);
        expect(text).not.toContain(Buffer.from(credential).toString('base64'));
      }
      expect(text).not.toContain('kubeconfig');
    },
  );

  it('takes spec.system when configured', () => {
    const entity = clusterEntity(cluster('a'), undefined, {
      owner: 'group:default/ops',
      system: 'platform',
    });
    expect(entity.spec).toEqual({
      type: 'kubernetes-cluster',
      owner: 'group:default/ops',
      system: 'platform',
    });
  });

  it("links its cluster's panel on the Clusters page when the page's URL is known, and nothing otherwise (issue 23.4)", () => {
    const linked = clusterEntity(cluster('edge-a'), undefined, {
      owner: 'group:default/ops',
      clustersPageUrl: 'https://portal.example.test/clusters/',
    });
    expect(linked.metadata.links).toEqual([
      {
        url: 'https://portal.example.test/clusters/edge-a',
        title: 'Cluster panel',
        icon: 'dashboard',
      },
    ]);
    expect(
      clusterEntity(cluster('edge-a'), undefined, {
        owner: 'group:default/ops',
      }).metadata.links,
    ).toBeUndefined();
  });

  it('leaves out labels and tags that are not valid catalog values', () => {
    const entity = clusterEntity(
      cluster('a', { region: 'eu west 1', flavor: 'K3S!' as any }),
      undefined,
      options,
    );
    expect(entity.metadata.labels).toEqual({
      'infrared.darkshift.io/type': 'workload',
    });
    expect(entity.metadata.tags).toEqual([]);
  });
});

describe('clusterEntityProblem', () => {
  it.each([
    ['edge-demo', false],
    ['a'.repeat(63), false],
    ['a'.repeat(64), true],
    ['edge.demo.example', false],
  ])('%s -> problem: %s', (name, problem) => {
    expect(!!clusterEntityProblem(cluster(name))).toBe(problem);
  });
});

describe('clusterEntityRef', () => {
  it('is resource:default/<cluster>', () => {
    expect(clusterEntityRef('edge-demo')).toBe('resource:default/edge-demo');
  });
});

describe('childClusterEntity (issue 23.4: the registrar children get entities too)', () => {
  it('is a kubernetes-cluster Resource marked as a child, with where it was found and a panel link', () => {
    const entity = childClusterEntity(
      {
        name: 'sandbox',
        server: 'https://k3k-sandbox.tenants.svc:6443',
        sourceNamespace: 'tenants',
        provider: 'k3k',
        state: 'active',
      },
      {
        owner: 'group:default/platform-admins',
        clustersPageUrl: 'http://localhost:3000/clusters',
      },
    );
    expect(entity).toEqual({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name: 'sandbox',
        namespace: 'default',
        description:
          'child cluster (k3k) the registrar found in namespace tenants and registered with Argo CD',
        labels: {
          'infrared.darkshift.io/type': 'child',
          'infrared.darkshift.io/provider': 'k3k',
        },
        annotations: {
          'backstage.io/managed-by-location': 'infrared-clusters:sandbox',
          'backstage.io/managed-by-origin-location':
            'infrared-clusters:sandbox',
          'infrared.darkshift.io/cluster': 'sandbox',
          'infrared.darkshift.io/discovered-from': 'tenants',
          'infrared.darkshift.io/registrar-provider': 'k3k',
          'infrared.darkshift.io/registrar-state': 'active',
          'infrared.darkshift.io/argocd-server':
            'https://k3k-sandbox.tenants.svc:6443',
        },
        links: [
          {
            url: 'http://localhost:3000/clusters/sandbox',
            title: 'Cluster panel',
            icon: 'dashboard',
          },
        ],
        tags: ['registrar-child', 'k3k'],
      },
      spec: {
        type: 'kubernetes-cluster',
        owner: 'group:default/platform-admins',
      },
    });
  });

  it('says when it is demoted, and leaves out a provider that is no label value', () => {
    const entity = childClusterEntity(
      {
        name: 'old',
        server: '',
        sourceNamespace: '',
        provider: 'my provider',
        state: 'demoted',
      },
      { owner: 'group:default/ops' },
    );
    expect(entity.metadata.description).toBe(
      'child cluster (my provider) the registrar found and registered with Argo CD (demoted: superseded by a rename)',
    );
    expect(entity.metadata.labels).toEqual({
      'infrared.darkshift.io/type': 'child',
    });
    expect(entity.metadata.tags).toEqual(['registrar-child']);
    expect(entity.metadata.links).toBeUndefined();
    expect(
      entity.metadata.annotations?.['infrared.darkshift.io/argocd-server'],
    ).toBeUndefined();
  });
});
