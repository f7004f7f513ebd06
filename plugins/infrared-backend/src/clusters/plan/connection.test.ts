import { resolveConnection } from './connection';
import {
  CA,
  clusterResource,
  kubeconfigText,
  SERVER,
  storedKubeconfigSecret,
  TOKEN,
} from '../__testUtils__/fixtures';

const CLUSTER = 'kubeconfig.clusters[0].cluster';

/** A hand-made kubeconfig Secret for Cluster `edge` whose cluster entry has `cluster`. */
const secretWith = (cluster: Record<string, unknown>) =>
  storedKubeconfigSecret('edge', kubeconfigText({ token: TOKEN }, cluster));

describe('resolveConnection', () => {
  it('carries the Argo CD connection: the kubeconfig server and config when spec.server is unset', () => {
    const c = resolveConnection(
      clusterResource('edge'),
      storedKubeconfigSecret('edge'),
    );
    expect(c).toMatchObject({
      kind: 'kubeconfig',
      argo: {
        server: SERVER,
        config: {
          bearerToken: TOKEN,
          tlsClientConfig: { insecure: false, caData: CA },
        },
      },
    });
  });

  it('carries spec.server as the server Argo CD (and so the probe) connects to', () => {
    const c = resolveConnection(
      clusterResource('edge', {
        spec: { server: 'https://edge.example:6443/' },
      }),
      storedKubeconfigSecret('edge'),
    );
    expect(c.kind === 'kubeconfig' && c.argo.server).toBe(
      'https://edge.example:6443',
    );
    expect(c.kind === 'kubeconfig' && c.kubeconfig.server).toBe(SERVER);
  });

  it('is ServerInvalid for a hand-made spec.server at the in-cluster address', () => {
    expect(
      resolveConnection(
        clusterResource('edge', {
          spec: { server: 'https://kubernetes.default.svc' },
        }),
        storedKubeconfigSecret('edge'),
      ),
    ).toEqual({
      kind: 'unusable',
      reason: 'ServerInvalid',
      message: expect.stringMatching(/^spec.server is refused: .*in-cluster/),
    });
  });

  it.each([
    [
      'insecure-skip-tls-verify with a CA',
      {
        server: SERVER,
        'insecure-skip-tls-verify': true,
        'certificate-authority-data': CA,
      },
      `${CLUSTER}.insecure-skip-tls-verify`,
      /specifying a root certificates file with the insecure flag is not allowed/,
    ],
    [
      'a socks5h proxy-url',
      {
        server: SERVER,
        'certificate-authority-data': CA,
        'proxy-url': 'socks5h://198.51.100.1:1080',
      },
      `${CLUSTER}.proxy-url`,
      /scheme socks5h, which Argo CD/,
    ],
  ])(
    'is KubeconfigInvalid for a hand-made kubeconfig Secret with %s, naming the field',
    (_what, cluster, field, message) => {
      const c = resolveConnection(clusterResource('edge'), secretWith(cluster));
      expect(c).toEqual({
        kind: 'unusable',
        reason: 'KubeconfigInvalid',
        message: expect.stringContaining(`${field}: `),
      });
      expect(c.kind === 'unusable' && c.message).toMatch(message);
    },
  );
});
