import { mockServices } from '@backstage/backend-test-utils';
import {
  kubeconfigSecret,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { renderKubeconfig } from '@infrared-clusters/infrared-kube';
import { b64, selfSignedPem } from './__testUtils__/pki';
import { InfraredAuthStrategy } from './authStrategy';
import { ProxyGate } from './proxyGate';
import {
  INFRARED_CLUSTER_METADATA,
  MANAGEMENT_LEFT_OUT,
  RegisteredClusters,
} from './registeredClusters';
import { InfraredClustersSupplier } from './supplier';

const ca = selfSignedPem('ca');
const credentials = {} as any;

function cluster(
  name: string,
  options: {
    registered?: boolean;
    inCluster?: boolean;
    deleting?: boolean;
    /** spec.connection.viewerKubeconfigSecretRef */
    viewer?: { name: string; key?: string };
  } = {},
): ClusterResource {
  return {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: {
      name,
      ...(options.deleting
        ? { deletionTimestamp: '2026-01-01T00:00:00Z' }
        : {}),
    },
    spec: {
      type: options.inCluster ? 'management' : 'workload',
      connection: {
        ...(options.inCluster
          ? { inCluster: true }
          : {
              kubeconfigSecretRef: {
                name: `cluster-${name}-kubeconfig`,
                key: 'kubeconfig',
              },
            }),
        ...(options.viewer
          ? { viewerKubeconfigSecretRef: options.viewer as any }
          : {}),
      },
    },
    status: {
      conditions: [
        {
          type: 'Registered',
          status: options.registered === false ? 'False' : 'True',
          reason: 'R',
          message: '',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
    },
  };
}

/** In-memory stand-ins of the watched caches (what the watch would hold). */
class Store {
  clusters = new Map<string, ClusterResource>();
  secrets = new Map<string, SecretObject>();
  readonly clusterSource = {
    list: () => [...this.clusters.values()],
    get: (name: string) => this.clusters.get(name),
  };
  readonly secretSource = {
    get: (name: string) => this.secrets.get(name),
  };
  put(
    c: ClusterResource,
    token?: string,
    server = 'https://203.0.113.10:6443',
  ) {
    this.clusters.set(c.metadata.name, c);
    if (token) {
      const s = kubeconfigSecret({
        clusterName: c.metadata.name,
        kubeconfig: renderKubeconfig(c.metadata.name, {
          server,
          caData: ca.cert,
          token,
        }),
      });
      this.putSecret(s.metadata.name, s.stringData ?? {});
    }
  }
  /** A Secret as the API server answers it: data, base64. */
  putSecret(name: string, strings: Record<string, string>) {
    this.secrets.set(name, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace: 'infrared' },
      data: Object.fromEntries(
        Object.entries(strings).map(([k, v]) => [k, b64(v)]),
      ),
    } as SecretObject);
  }
  /** A viewer kubeconfig Secret with a bearer token. */
  putViewer(
    name: string,
    token: string,
    server = 'https://198.51.100.7:6443',
    key = 'kubeconfig',
  ) {
    this.putSecret(name, {
      [key]: renderKubeconfig('viewer', { server, caData: ca.cert, token }),
    });
  }
}

function setUp() {
  const store = new Store();
  const logger = mockServices.logger.mock();
  const registered = new RegisteredClusters({
    clusters: store.clusterSource,
    secrets: store.secretSource,
    logger,
  });
  return { store, logger, registered };
}

describe('RegisteredClusters', () => {
  it('lists every Registered Cluster, and only those, with no credential in the details', async () => {
    const { store, registered } = setUp();
    store.put(cluster('edge-b'), 'token-b');
    store.put(cluster('edge-a'), 'token-a');
    store.put(cluster('pending', { registered: false }), 'token-p');
    store.put(cluster('going', { deleting: true }), 'token-g');
    const details = await registered.details();
    expect(details.map(d => d.name)).toEqual(['edge-a', 'edge-b']);
    expect(details[0]).toEqual({
      name: 'edge-a',
      title: 'edge-a',
      url: 'https://203.0.113.10:6443',
      caData: b64(ca.cert),
      skipTLSVerify: false,
      skipMetricsLookup: false,
      authMetadata: {
        'kubernetes.io/auth-provider': 'infrared',
        [INFRARED_CLUSTER_METADATA]: 'edge-a',
      },
    });
    expect(JSON.stringify(details)).not.toMatch(/token-/);
  });

  it('gives the credential the Secret holds at request time (a rotated token at once)', async () => {
    const { store, registered } = setUp();
    store.put(cluster('edge'), 'first');
    expect(await registered.credential('edge')).toEqual({
      type: 'bearer token',
      token: 'first',
    });
    store.put(cluster('edge'), 'second');
    expect(await registered.credential('edge')).toEqual({
      type: 'bearer token',
      token: 'second',
    });
  });

  it('never hands out a management identity: an inCluster cluster without a viewer kubeconfig is left out, logged once', async () => {
    const { store, registered, logger } = setUp();
    store.put(cluster('infrared-mgmt', { inCluster: true }));
    store.put(cluster('edge'), 'tok');
    expect((await registered.details()).map(d => d.name)).toEqual(['edge']);
    expect((await registered.details()).map(d => d.name)).toEqual(['edge']);
    await expect(registered.credential('infrared-mgmt')).rejects.toThrow(
      MANAGEMENT_LEFT_OUT,
    );
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      `infrared: cluster infrared-mgmt is left out of the Kubernetes plugin: ${MANAGEMENT_LEFT_OUT}`,
    );
  });

  it('supplies an inCluster cluster with its viewer kubeconfig, an in-cluster address allowed', async () => {
    const { store, registered } = setUp();
    const viewer = { name: 'mgmt-viewer' };
    store.put(cluster('infrared-mgmt', { inCluster: true, viewer }));
    store.putViewer(
      'mgmt-viewer',
      'viewer-token',
      'https://kubernetes.default.svc',
    );
    const [details] = await registered.details();
    expect([details.name, details.url]).toEqual([
      'infrared-mgmt',
      'https://kubernetes.default.svc',
    ]);
    expect(await registered.credential('infrared-mgmt')).toEqual({
      type: 'bearer token',
      token: 'viewer-token',
    });
  });

  it("uses a workload cluster's viewer kubeconfig instead of Argo CD's, its server and key as it names them", async () => {
    const { store, registered } = setUp();
    store.put(
      cluster('edge', { viewer: { name: 'edge-viewer', key: 'ro' } }),
      'argo-token',
    );
    store.putViewer(
      'edge-viewer',
      'viewer-token',
      'https://198.51.100.7:6443',
      'ro',
    );
    const [details] = await registered.details();
    expect(details.url).toBe('https://198.51.100.7:6443');
    expect(await registered.credential('edge')).toEqual({
      type: 'bearer token',
      token: 'viewer-token',
    });
    // rotated in the Secret: used at once
    store.putViewer(
      'edge-viewer',
      'rotated',
      'https://198.51.100.7:6443',
      'ro',
    );
    expect(await registered.credential('edge')).toEqual({
      type: 'bearer token',
      token: 'rotated',
    });
  });

  it.each([
    [
      'its Secret is missing',
      { name: 'gone' },
      undefined,
      /Secret infrared\/gone \(spec.connection.viewerKubeconfigSecretRef\) does not exist/,
    ],
    [
      'its key is missing',
      { name: 'edge-viewer', key: 'other' },
      'edge-viewer',
      /has no key other/,
    ],
    [
      'its name is not a Secret name',
      { name: 'Not A Name' },
      undefined,
      /spec.connection.viewerKubeconfigSecretRef.name must match/,
    ],
  ])(
    'never falls back to Argo CD credential when the viewer kubeconfig is unusable: %s',
    async (_what, viewer, secretName, reason) => {
      const { store, registered, logger } = setUp();
      store.put(cluster('edge', { viewer }), 'argo-token');
      if (secretName) store.putViewer(secretName, 'viewer-token');
      expect(await registered.details()).toEqual([]);
      await expect(registered.credential('edge')).rejects.toThrow(reason);
      expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(reason));
    },
  );

  it('refuses a viewer kubeconfig by the rules of the main one (no exec plugin, spec.server over its server)', async () => {
    const { store, registered } = setUp();
    const withServer = cluster('edge', { viewer: { name: 'edge-viewer' } });
    withServer.spec.server = 'https://edge.example.com:6443';
    store.put(withServer, 'argo-token');
    store.putViewer('edge-viewer', 'viewer-token');
    expect((await registered.details())[0].url).toBe(
      'https://edge.example.com:6443',
    );
    store.putSecret('edge-viewer', {
      kubeconfig: [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://198.51.100.7:6443"}}]',
        'users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: sh}}}]',
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
        'current-context: x',
      ].join('\n'),
    });
    await expect(registered.credential('edge')).rejects.toThrow(
      /viewerKubeconfigSecretRef\), key kubeconfig, is refused/,
    );
  });

  it('drops a removed cluster at once, and refuses its credential', async () => {
    const { store, registered } = setUp();
    store.put(cluster('edge'), 'tok');
    expect(await registered.details()).toHaveLength(1);
    store.clusters.delete('edge');
    expect(await registered.details()).toEqual([]);
    await expect(registered.credential('edge')).rejects.toThrow(
      'infrared: cluster edge is not a Registered Cluster (any more)',
    );
  });

  it('leaves out a cluster whose kubeconfig Secret is gone, logging the reason once', async () => {
    const { store, registered, logger } = setUp();
    store.put(cluster('edge'), 'tok');
    store.secrets.clear();
    expect(await registered.details()).toEqual([]);
    expect(await registered.details()).toEqual([]);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^infrared: cluster edge is left out of the Kubernetes plugin: Secret infrared\/cluster-edge-kubeconfig .* does not exist/,
      ),
    );
  });
});

describe('InfraredAuthStrategy and InfraredClustersSupplier', () => {
  it('finds the credential by the Cluster the details name, and presents nothing to the frontend', async () => {
    const { store, registered } = setUp();
    store.put(cluster('edge'), 'tok');
    const strategy = new InfraredAuthStrategy(registered);
    const [details] = await registered.details();
    await expect(strategy.getCredential(details)).resolves.toEqual({
      type: 'bearer token',
      token: 'tok',
    });
    expect(strategy.presentAuthMetadata()).toEqual({});
    expect(strategy.validateCluster(details.authMetadata)).toEqual([]);
    expect(strategy.validateCluster({})[0].message).toMatch(
      /needs authMetadata infrared.darkshift.io\/cluster/,
    );
  });

  it('adds the Registered Clusters to the configured ones, a configured name winning', async () => {
    const { store, registered } = setUp();
    store.put(cluster('edge'), 'tok');
    store.put(cluster('static'), 'tok');
    const configured = {
      getClusters: async () => [
        { name: 'static', url: 'https://static', authMetadata: {} },
      ],
    };
    const supplier = new InfraredClustersSupplier(
      registered,
      async () => undefined,
      configured,
    );
    const names = (await supplier.getClusters({ credentials })).map(c => [
      c.name,
      c.url,
    ]);
    expect(names).toEqual([
      ['static', 'https://static'],
      ['edge', 'https://203.0.113.10:6443'],
    ]);
    store.clusters.delete('edge');
    expect(await supplier.getClusters({ credentials })).toHaveLength(1);
  });
});

describe('ProxyGate', () => {
  /** Runs the gate's middleware as the Kubernetes plugin's router would, then the proxy's credential lookup. */
  async function proxy(
    gate: ProxyGate,
    strategy: InfraredAuthStrategy,
    url: string,
    name?: string,
  ): Promise<{ refused?: Error; credential?: unknown; passed: boolean }> {
    const req: any = {
      url,
      method: 'GET',
      headers: name ? { 'backstage-kubernetes-cluster': name } : {},
    };
    const error = await new Promise<unknown>(resolve =>
      gate.middleware()(req, {} as any, (err?: unknown) => {
        if (err) {
          resolve(err);
          return;
        }
        // what the proxy does next, in the middleware's context
        strategy
          .getCredential({
            name: name ?? 'edge',
            url: 'https://x',
            authMetadata: { [INFRARED_CLUSTER_METADATA]: name ?? 'edge' },
          })
          .then(
            credential => resolve({ credential }),
            refused => resolve({ refused, late: true }),
          );
      }),
    );
    if (error instanceof Error) return { refused: error, passed: false };
    return { ...(error as object), passed: true };
  }

  function setUpGate(options: { allowAll?: boolean; clusters?: string[] }) {
    const { store, registered, logger } = setUp();
    store.put(cluster('edge'), 'edge-token');
    store.put(cluster('open'), 'open-token');
    const gate = new ProxyGate(
      { allowAll: false, clusters: [], ...options },
      {
        has: name => store.clusters.has(name),
        supplied: async () => (await registered.details()).map(d => d.name),
      },
      logger,
    );
    return {
      gate,
      strategy: new InfraredAuthStrategy(registered, gate),
      store,
    };
  }

  it('refuses the proxy to an Infrared cluster that config does not open, with 403 naming the cluster and the key', async () => {
    const { gate, strategy } = setUpGate({ clusters: ['open'] });
    const res = await proxy(
      gate,
      strategy,
      '/proxy/api/v1/namespaces/infrared/secrets',
      'edge',
    );
    expect(res.passed).toBe(false);
    expect(res.refused).toMatchObject({
      name: 'NotAllowedError',
      statusCode: 403,
      message: expect.stringMatching(
        /cluster edge is closed: add edge to infrared.kubernetes.proxy.clusters/,
      ),
    });
    const opened = await proxy(gate, strategy, '/proxy/api/v1/pods', 'open');
    expect(opened.credential).toEqual({
      type: 'bearer token',
      token: 'open-token',
    });
  });

  it.each(['/proxy', '/proxy/', '/PROXY/api', '/Proxy/api?watch=1'])(
    'reads %s as the proxy, as Express does',
    async url => {
      const { gate, strategy } = setUpGate({});
      expect((await proxy(gate, strategy, url, 'edge')).passed).toBe(false);
    },
  );

  it('lets other routes and clusters that are not Infrared ones through, and the tab gets its credential', async () => {
    const { gate, strategy } = setUpGate({});
    for (const url of [
      '/services/x',
      '/clusters',
      '/proxyx',
      '/resources/proxy',
    ]) {
      const res = await proxy(gate, strategy, url, 'edge');
      expect([url, res.credential]).toEqual([
        url,
        { type: 'bearer token', token: 'edge-token' },
      ]);
    }
    const configured = await proxy(gate, strategy, '/proxy/api', 'static');
    expect(configured.passed).toBe(true);
  });

  it('refuses a request naming no cluster while a closed Infrared cluster is supplied', async () => {
    const { gate, strategy } = setUpGate({ clusters: ['open'] });
    const res = await proxy(gate, strategy, '/proxy/api');
    expect(res.refused?.message).toMatch(
      /must name its cluster .* while the proxy to edge is closed/,
    );
  });

  it('opens every cluster with allowAll', async () => {
    const { gate, strategy } = setUpGate({ allowAll: true });
    expect(
      (await proxy(gate, strategy, '/proxy/api', 'edge')).credential,
    ).toEqual({
      type: 'bearer token',
      token: 'edge-token',
    });
    expect((await proxy(gate, strategy, '/proxy/api')).passed).toBe(true);
  });

  it('refuses the credential inside a proxy request even when the middleware let it through (a cluster it did not know yet)', async () => {
    const { gate, strategy, store } = setUpGate({});
    store.clusters.delete('edge');
    // the middleware does not know edge: through; then the cache has it when the proxy asks
    const req: any = {
      url: '/proxy/api',
      method: 'GET',
      headers: { 'backstage-kubernetes-cluster': 'edge' },
    };
    const refused = await new Promise<unknown>(resolve =>
      gate.middleware()(req, {} as any, () => {
        store.put(cluster('edge'), 'edge-token');
        strategy
          .getCredential({
            name: 'edge',
            url: 'https://x',
            authMetadata: { [INFRARED_CLUSTER_METADATA]: 'edge' },
          })
          .then(resolve, resolve);
      }),
    );
    expect(refused).toMatchObject({ statusCode: 403 });
    // outside a proxy request (the fetcher), the same cluster gets its credential
    expect(
      await strategy.getCredential({
        name: 'edge',
        url: 'https://x',
        authMetadata: { [INFRARED_CLUSTER_METADATA]: 'edge' },
      }),
    ).toEqual({ type: 'bearer token', token: 'edge-token' });
  });
});
