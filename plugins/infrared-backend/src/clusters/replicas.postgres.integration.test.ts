import {
  coreServices,
  createBackendModule,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import { databaseServiceFactory } from '@backstage/backend-defaults/database';
import { schedulerServiceFactory } from '@backstage/backend-defaults/scheduler';
import { mockCredentials } from '@backstage/backend-test-utils';
import {
  eventually,
  KubeClient as AdminClient,
  serverAlias,
  startControlPlane,
  startPostgres,
  type ControlPlane,
  type LocalPostgres,
  type ServerAlias,
  removeTestDir,
} from '@internal/devenv';
import { gitopsPublisherExtensionPoint } from '@infrared-clusters/plugin-infrared-node';
import {
  KeyedLock,
  RequestCounter,
  type ManagementApi,
} from '@infrared-clusters/infrared-kube';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { captureLogger } from '../gitops/__testUtils__/captureLogger';
import {
  additionsByPath,
  mergedChanges,
} from '../gitops/__testUtils__/mergeHistory';
import { startBackendOnControlPlane } from '../__testUtils__/backendOnControlPlane';
import { LocalGitPublisher } from '../gitops';
import { prepareManagementCluster } from './__testUtils__/managementCluster';

jest.setTimeout(240_000);

const CLUSTERS = 100;
const CLUSTERS_API = '/apis/infrared.darkshift.io/v1alpha1/clusters';
const registeredTrue = (cluster: any) =>
  cluster.status?.conditions?.some(
    (c: any) => c.type === 'Registered' && c.status === 'True',
  );
const appOfApps = (name: string) =>
  `registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`;

interface Replica {
  server: any;
  backend: { stop(): Promise<void> };
  logger: ReturnType<typeof captureLogger>;
  /** Requests to the management API server, by verb. */
  counter: RequestCounter;
  /** The replica's writes of Argo CD Secrets, e.g. `create cluster-x ok`, `create cluster-x refused`. */
  argoWrites: string[];
}

const WRITES = ['create', 'replace', 'patchMetadata', 'delete'];

/** The management API with every Secret write in `argocd` recorded, with whether the API server took it. */
function recordingArgoWrites(api: ManagementApi, writes: string[]) {
  const secrets = new Proxy(api.secrets, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || !WRITES.includes(key)) return value;
      return async (...args: any[]) => {
        const [namespace, name] =
          typeof args[0] === 'string'
            ? args
            : [args[0].metadata.namespace, args[0].metadata.name];
        const record = (outcome: string) =>
          namespace === 'argocd' && writes.push(`${key} ${name} ${outcome}`);
        try {
          const result = await value.apply(target, args);
          record('ok');
          return result;
        } catch (e) {
          record('refused');
          throw e;
        }
      };
    },
  });
  return { ...api, secrets };
}

/** The full passes (the scheduled task) a replica finished: the debug summary of 10 or more clusters. */
const fullPasses = (replica: Replica) =>
  replica.logger.lines.filter(l =>
    /^debug infrared: reconciled (\d{2,}) clusters/.test(l),
  ).length;

/**
 * Two backend replicas of the plugin on one PostgreSQL (Backstage's real database and scheduler,
 * so the `scope: 'global'` reconcile task runs on one replica at a time) and one local gitops
 * repository, against a control plane of their own (Clusters are cluster-scoped: a shared one
 * would have other tests' backends reconcile these Clusters too). Each replica has its own git
 * mutex, as two processes would: only the repository's compare-and-swap orders their merges.
 */
describe('two backend replicas on one PostgreSQL', () => {
  const aliases: ServerAlias[] = [];
  let cp: ControlPlane;
  let postgres: LocalPostgres;
  let admin: AdminClient;
  const replicas: Replica[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-replicas-'));
  const gitops = path.join(tmp, 'gitops.git');
  const names = Array.from(
    { length: CLUSTERS },
    (_, i) => `replica-${String(i).padStart(3, '0')}`,
  );

  async function startReplica(index: number, backendKubeconfig: string) {
    const logger = captureLogger();
    const argoWrites: string[] = [];
    const counter = new RequestCounter();
    const probeCounter = new RequestCounter();
    const backend = await startBackendOnControlPlane({
      controlPlane: cp,
      identity: { kubeconfig: backendKubeconfig },
      scheduler: false,
      counter,
      probeCounter,
      api: api => recordingArgoWrites(api, argoWrites),
      gitops,
      config: {
        backend: {
          database: { client: 'pg', connection: postgres.connection },
        },
      },
      infrared: { reconcile: { interval: '2s' } },
      features: [
        // The real database and scheduler (the test backend's defaults are in-memory mocks).
        databaseServiceFactory,
        schedulerServiceFactory,
        createServiceFactory({
          service: coreServices.rootLogger,
          deps: {},
          factory: () => logger,
        }),
        createBackendModule({
          pluginId: 'infrared',
          moduleId: `replica-${index}-gitops`,
          register(env) {
            env.registerInit({
              deps: { gitops: gitopsPublisherExtensionPoint },
              async init(deps) {
                deps.gitops.setPublisher(
                  ({ logger: log }) =>
                    new LocalGitPublisher({
                      path: gitops,
                      logger: log,
                      mutex: new KeyedLock(),
                    }),
                );
              },
            });
          },
        }),
      ],
    });
    return { server: backend.server, backend, logger, counter, argoWrites };
  }

  const listMine = async () =>
    (await admin.must('GET', CLUSTERS_API)).body.items.filter((c: any) =>
      names.includes(c.metadata.name),
    );
  const argoSecrets = async () =>
    (
      await admin.must(
        'GET',
        '/api/v1/namespaces/argocd/secrets?labelSelector=argocd.argoproj.io%2Fsecret-type%3Dcluster',
      )
    ).body.items;
  const kubeconfigSecrets = async () =>
    (await admin.must('GET', '/api/v1/namespaces/infrared/secrets')).body.items;
  const versions = (items: any[]) =>
    Object.fromEntries(
      items.map(o => [o.metadata.name, o.metadata.resourceVersion]),
    );
  /** What would move if a replica wrote again: every object's resourceVersion and the gitops head. */
  const snapshot = async () => ({
    clusters: versions(await listMine()),
    argo: versions(await argoSecrets()),
    kubeconfigs: versions(await kubeconfigSecrets()),
    changes: mergedChanges(gitops).length,
  });
  /** Resolves once `n` more scheduled passes over every Cluster finished, on either replica. */
  const afterFullPasses = async (n: number) => {
    const total = () => replicas.reduce((s, r) => s + fullPasses(r), 0);
    const target = total() + n;
    await eventually(async () => total() >= target, 60_000, 200);
  };

  beforeAll(async () => {
    cp = await startControlPlane({
      clusters: ['management', 'workload-a'],
      ownerPid: process.pid,
    });
    admin = AdminClient.fromKubeconfig(cp.cluster('management').kubeconfig);
    const backendKubeconfig = await prepareManagementCluster(
      cp.cluster('management'),
    );
    postgres = await startPostgres();
    // One after the other, as a rolling deployment starts them: two backends migrating the same
    // fresh database at the same instant race on knex's own migrations table.
    replicas.push(await startReplica(1, backendKubeconfig));
    replicas.push(await startReplica(2, backendKubeconfig));
  });

  afterAll(async () => {
    await Promise.allSettled(replicas.map(r => r.backend.stop()));
    await Promise.all(aliases.map(a => a.close()));
    // a stopped scheduler releases its task in the database: then PostgreSQL may go
    await new Promise(r => setTimeout(r, 1000));
    await postgres?.stop();
    await cp?.stop();
    removeTestDir(tmp);
  });

  it('registers 100 clusters posted to both replicas once each: one Secret, one merged file, no duplicate pull request', async () => {
    // each cluster at an address of its own, all reaching workload-a: one registration per API
    // server (issue 23.1)
    const kubeconfigs = new Map<string, string>();
    for (const name of names) {
      const alias = await serverAlias(cp, 'workload-a');
      aliases.push(alias);
      kubeconfigs.set(name, alias.kubeconfig);
    }
    const started = Date.now();
    for (let i = 0; i < names.length; i += 20) {
      await Promise.all(
        names.slice(i, i + 20).map(async (name, j) => {
          const replica = replicas[(i + j) % replicas.length];
          const res = await request(replica.server)
            .post('/api/infrared/v1/clusters')
            .set('Authorization', mockCredentials.user.header())
            .send({
              name,
              kubeconfig: kubeconfigs.get(name),
              flavor: 'k3s',
              provider: 'local',
            });
          expect(res.status).toBe(201);
        }),
      );
    }

    const registered = await eventually(
      async () => {
        const mine = await listMine();
        const done = mine.filter(registeredTrue);
        return done.length === CLUSTERS && mine;
      },
      120_000,
      250,
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);

    expect(registered).toHaveLength(CLUSTERS);
    // The passes in flight when the last status was written settle before anything is counted.
    await afterFullPasses(2);

    // one Argo CD Secret per cluster, named for it
    const argo = (await argoSecrets()).filter((s: any) =>
      names.includes(Buffer.from(s.data.name, 'base64').toString()),
    );
    expect(argo.map((s: any) => s.metadata.name).sort()).toEqual(
      names.map(n => `cluster-${n}`),
    );

    // each written once, by one replica: the other's create refused (AlreadyExists), never a replace
    const argoWrites = replicas.flatMap(r => r.argoWrites);
    const accepted = argoWrites.filter(w => w.endsWith(' ok')).sort();
    expect(accepted).toEqual(names.map(n => `create cluster-${n} ok`));

    // each cluster's file added once, in one merged change, and never written again
    const changes = mergedChanges(gitops);
    expect(changes.every(c => c.parents === 2)).toBe(true);
    const added = additionsByPath(changes);
    for (const name of names) expect(added.get(appOfApps(name))).toBe(1);
    const rewritten = changes.flatMap(c => [...c.modified, ...c.deleted]);
    expect(rewritten).toEqual([]);

    // one pull request per key, one merged per merged change, none left open: a replica that found
    // its batch's files landed by the other closes its own
    const pulls = await new LocalGitPublisher({
      path: gitops,
      mutex: new KeyedLock(),
    }).listPullRequests();
    const keys = pulls.map(p => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(pulls.filter(p => !p.merged && !p.closed)).toEqual([]);
    const merged = pulls.filter(p => p.merged);
    expect(merged.map(p => p.commit).sort()).toEqual(
      changes.map(c => c.commit).sort(),
    );
    // both replicas served registrations
    for (const replica of replicas) {
      expect(replica.counter.byVerb().POST).toBeGreaterThan(0);
    }

    // a figure, not asserted: the statuses that name another merged change than the one that added
    // the cluster's file (a batch of the other replica that held it too, unchanged)
    const addedBy = new Map<string, string>();
    for (const c of changes) for (const f of c.added) addedBy.set(f, c.commit);
    const namingAnother = (await listMine()).filter(
      (c: any) =>
        c.status.pullRequest?.commit !==
        addedBy.get(appOfApps(c.metadata.name)),
    ).length;

    // converged: two more passes (on either replica) write nothing
    const before = await snapshot();
    await afterFullPasses(2);
    expect(await snapshot()).toEqual(before);

    // no replica logged the kubeconfig's key
    const key = /client-key-data: (\S+)/.exec(
      cp.cluster('workload-a').kubeconfig,
    )![1];
    for (const replica of replicas) {
      expect(replica.logger.text()).not.toContain(key);
    }

    // eslint-disable-next-line no-console
    console.info(
      `${CLUSTERS} clusters over ${replicas.length} replicas: all Registered after ${seconds} s; ` +
        `${changes.length} merged changes, ${
          pulls.length - merged.length
        } pull requests closed; ${
          argoWrites.length - accepted.length
        } Argo CD Secret writes refused; ${namingAnother} statuses name a later change than the one that added the file; management requests per replica: ${replicas
          .map(r => JSON.stringify(r.counter.byVerb()))
          .join(' ')}`,
    );
  });
});
