import {
  kubeconfigSecret,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { renderKubeconfig } from '@infrared-clusters/infrared-kube';
import { EndpointMemo } from './endpointMemo';

const cluster = (server?: string): ClusterResource => ({
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'edge' },
  spec: {
    type: 'workload',
    ...(server ? { server } : {}),
    connection: {
      kubeconfigSecretRef: {
        name: 'cluster-edge-kubeconfig',
        key: 'kubeconfig',
      },
    },
  },
});

const secret = (server: string, resourceVersion: string): SecretObject => {
  const text = renderKubeconfig('edge', { server, caData: 'CA', token: 't' });
  const made = kubeconfigSecret({ clusterName: 'edge', kubeconfig: text });
  return {
    ...made,
    metadata: { ...made.metadata, uid: 'u1', resourceVersion },
    stringData: undefined,
    data: { kubeconfig: Buffer.from(text).toString('base64') },
  };
};

describe('EndpointMemo', () => {
  it('reuses the endpoint while the Secret and the connection are the same, and computes it again when either changes', () => {
    const memo = new EndpointMemo(undefined);
    memo.startRound();
    const first = memo.endpoint(cluster(), secret('https://a.test:6443', '1'));
    expect(first).toEqual({
      server: 'https://a.test:6443',
      caData: Buffer.from('CA').toString('base64'),
    });
    memo.endRound();

    memo.startRound();
    // the same object: the kubeconfig was not parsed again
    expect(memo.endpoint(cluster(), secret('https://a.test:6443', '1'))).toBe(
      first,
    );
    // a rotated Secret (new resourceVersion) is read again
    expect(
      memo.endpoint(cluster(), secret('https://b.test:6443', '2'))?.server,
    ).toBe('https://b.test:6443');
    // so is a Cluster whose spec.server changed
    expect(
      memo.endpoint(
        cluster('https://c.test:6443'),
        secret('https://b.test:6443', '2'),
      )?.server,
    ).toBe('https://c.test:6443');
    memo.endRound();
  });

  it('forgets what the last full mutation did not use', () => {
    const memo = new EndpointMemo(undefined);
    memo.startRound();
    const first = memo.endpoint(cluster(), secret('https://a.test:6443', '1'));
    memo.endRound();
    memo.startRound();
    memo.endRound();
    expect(
      memo.endpoint(cluster(), secret('https://a.test:6443', '1')),
    ).not.toBe(first);
  });

  it('a Cluster without a Secret: no endpoint, inCluster: the management one', () => {
    const management = { server: 'https://mgmt.test:6443' };
    const memo = new EndpointMemo(management);
    expect(memo.endpoint(cluster(), undefined)).toBeUndefined();
    const inCluster = {
      ...cluster(),
      spec: { type: 'management' as const, connection: { inCluster: true } },
    };
    expect(memo.endpoint(inCluster, undefined)).toBe(management);
  });
});
