import { mockServices } from '@backstage/backend-test-utils';
import {
  kubeconfigSecret,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import {
  KubeClient,
  renderKubeconfig,
} from '@infrared-clusters/plugin-infrared-node';
import { b64, selfSignedPem } from './__testUtils__/pki';
import { InfraredAuthStrategy } from './authStrategy';
import {
  INFRARED_CLUSTER_METADATA,
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
      connection: options.inCluster
        ? { inCluster: true }
        : {
            kubeconfigSecretRef: {
              name: `cluster-${name}-kubeconfig`,
              key: 'kubeconfig',
            },
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
      // as the API server answers: data, base64
      this.secrets.set(s.metadata.name, {
        ...s,
        data: Object.fromEntries(
          Object.entries(s.stringData ?? {}).map(([k, v]) => [k, b64(v)]),
        ),
        stringData: undefined,
      });
    }
  }
}

function setUp() {
  const store = new Store();
  const logger = mockServices.logger.mock();
  const management = KubeClient.fromAccess({
    server: 'https://127.0.0.1:6443',
    caData: ca.cert,
    token: 'management-token',
  });
  const registered = new RegisteredClusters({
    management,
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

  it('reaches an inCluster cluster with the backend own management identity', async () => {
    const { store, registered } = setUp();
    store.put(cluster('infrared-mgmt', { inCluster: true }));
    const [details] = await registered.details();
    expect(details.url).toBe('https://127.0.0.1:6443');
    expect(await registered.credential('infrared-mgmt')).toEqual({
      type: 'bearer token',
      token: 'management-token',
    });
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
