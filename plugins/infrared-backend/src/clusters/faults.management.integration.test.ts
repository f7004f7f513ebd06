import {
  etcdEvents,
  etcdKey,
  etcdRevision,
  eventually,
  recordRecovery,
  KubeClient as AdminClient,
  type ControlPlane,
} from '@internal/devenv';
import type { ClusterCondition } from '@infrared-clusters/plugin-infrared-common';
import { execFileSync } from 'node:child_process';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';

jest.setTimeout(180_000);

const TASK = 'infrared-clusters-reconcile';
const CLUSTERS = 80;
const CLUSTERS_API = '/apis/infrared.darkshift.io/v1alpha1/clusters';

/** Settles within `ms`, or rejects: a pass cut off from its API server must still end. */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what}: not done after ${ms} ms`)),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Issue 17, "management API server restarted mid-pass", for the clusters reconciler: a pass over
 * many pending Clusters made with kubectl (Cluster + kubeconfig Secret) on a control plane of this
 * test's own, whose management kube-apiserver is killed while the pass writes and started again.
 * Every Secret write is read back from etcd's history, which outlives the API server.
 */
describe('the management API server killed during a reconcile pass', () => {
  let cp: ControlPlane;
  let admin: AdminClient;
  let backend: BackendOnControlPlane;
  const names = Array.from({ length: CLUSTERS }, (_, i) => `edge-${i}`);

  const pass = () => backend.pass(TASK);
  const argoKey = (name: string) =>
    etcdKey('management', 'secrets', 'argocd', `cluster-${name}`);
  const kubeconfigKey = (name: string) =>
    etcdKey('management', 'secrets', 'infrared', `${name}-kc`);
  const condition = (cluster: any, type: string) =>
    ((cluster.status?.conditions ?? []) as ClusterCondition[]).find(
      c => c.type === type,
    )?.status;

  beforeAll(async () => {
    backend = await startBackendOnControlPlane({
      controlPlane: ['management', 'workload-m'],
      withClient: false,
      tmpPrefix: 'infrared-fault-',
    });
    cp = backend.cp;
    admin = cp.client('management');
    // Clusters made around the API (as kubectl would), so no API write starts a pass of its own.
    const kubeconfig = cp.cluster('workload-m').kubeconfig;
    await Promise.all(
      names.map(async name => {
        await admin.must('POST', '/api/v1/namespaces/infrared/secrets', {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `${name}-kc`, namespace: 'infrared' },
          stringData: { kubeconfig },
        });
        await admin.must('POST', CLUSTERS_API, {
          apiVersion: 'infrared.darkshift.io/v1alpha1',
          kind: 'Cluster',
          metadata: { name },
          spec: {
            type: 'workload',
            connection: {
              kubeconfigSecretRef: { name: `${name}-kc`, key: 'kubeconfig' },
            },
          },
        });
      }),
    );
  });

  afterAll(async () => {
    await backend?.stop();
  });

  it('loses no Secret, writes none twice, and the next pass registers every Cluster', async () => {
    const { etcdUrl } = cp.state;
    const argoPrefix = `${etcdKey('management', 'secrets', 'argocd')}/`;
    const from = (await etcdRevision(etcdUrl)).revision + 1;

    const interrupted = pass().then(
      () => 'done',
      (e: Error) => `failed: ${e.message}`,
    );
    // kill it once the pass has written some Argo CD Secrets, well before all
    await eventually(
      async () => (await etcdRevision(etcdUrl, argoPrefix)).count >= 5,
      60_000,
      10,
    );
    const crashedAt = Date.now();
    await cp.stopApiserver('management', { crash: true });
    const writtenBeforeCrash = (await etcdRevision(etcdUrl, argoPrefix)).count;
    expect(writtenBeforeCrash).toBeLessThan(CLUSTERS);
    await within(60_000, 'the interrupted pass', interrupted);
    const interruptedEnded = Date.now();

    await cp.startApiserver('management');
    const ready = Date.now();
    await within(120_000, 'the next pass', pass());
    const converged = Date.now();

    const clusters = (await admin.must('GET', CLUSTERS_API)).body.items.filter(
      (c: any) => names.includes(c.metadata.name),
    );
    expect(
      clusters
        .filter((c: any) => condition(c, 'Registered') !== 'True')
        .map((c: any) => c.metadata.name),
    ).toEqual([]);
    expect(clusters).toHaveLength(CLUSTERS);

    // every Secret write since the pass began, up to a marker written after it
    const marker = `zz-end-${Date.now()}`;
    await admin.must('POST', '/api/v1/namespaces/argocd/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: marker },
    });
    const events = await etcdEvents(etcdUrl, {
      prefix: `${etcdKey('management', 'secrets')}/`,
      fromRevision: from,
      until: e => e.key.endsWith(`/${marker}`),
    });
    const writes: Record<string, string[]> = {};
    for (const e of events.filter(x => !x.key.endsWith(`/${marker}`))) {
      (writes[e.key] ??= []).push(`${e.type}@${e.version}`);
    }
    const expected: Record<string, string[]> = {};
    for (const name of names) {
      expected[argoKey(name)] = ['PUT@1']; // created once, never rewritten or deleted
      expected[kubeconfigKey(name)] = ['PUT@2']; // adopted (owner and label) once
    }
    expect(writes).toEqual(expected);

    const files = execFileSync(
      'git',
      [`--git-dir=${backend.gitops}`, 'ls-tree', '-r', '--name-only', 'main'],
      { encoding: 'utf8' },
    );
    for (const name of names) {
      expect(files).toContain(
        `registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`,
      );
    }

    recordRecovery('management API server killed mid reconcile pass', {
      clusters: CLUSTERS,
      argoSecretsBeforeCrash: writtenBeforeCrash,
      crashToPassEndMs: interruptedEnded - crashedAt,
      restartToReadyMs: ready - interruptedEnded,
      readyToConvergedMs: converged - ready,
    });
    // the backend answers again, from the restarted API server
    const res = await backend.send('get', '/v1/clusters/edge-0');
    expect(res.status).toBe(200);
  });
});
