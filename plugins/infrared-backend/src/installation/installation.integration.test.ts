import {
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import {
  eventually,
  serverAlias,
  startControlPlane,
  KubeClient as AdminClient,
  type ControlPlane,
  removeTestDir,
} from '@internal/devenv';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { prepareManagementCluster } from '../clusters/__testUtils__/managementCluster';
import { SerialScheduler } from '../clusters/__testUtils__/serialScheduler';
import { captureLogger } from '../gitops/__testUtils__/captureLogger';
import { infraredPlugin } from '../plugin';

jest.setTimeout(240_000);

const TASK = 'infrared-clusters-reconcile';
const CLUSTERS_API = '/apis/infrared.darkshift.io/v1alpha1/clusters';
const LEASE =
  '/apis/coordination.k8s.io/v1/namespaces/infrared/leases/infrared-installation';
/** Short, so that a take-over happens within the test: renewals every 0.5 s. */
const LEASE_DURATION = '2s';
const appOfApps = (name: string) =>
  `registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`;

interface Backend {
  server: any;
  stop(): Promise<void>;
  scheduler: SerialScheduler;
  logger: ReturnType<typeof captureLogger>;
  gitops: string;
}

/** The files at the head of a local gitops repository (none when nothing was published). */
function filesIn(gitops: string): string[] {
  try {
    return execFileSync(
      'git',
      ['--git-dir', gitops, 'ls-tree', '-r', '--name-only', 'HEAD'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    )
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Issue 22, "a second backend on one management cluster": real backends (the plugin as an adopter
 * installs it: the management cluster from infrared.managementCluster.kubeconfigPath, running as
 * the chart's ServiceAccount with only the chart's RBAC), each with its own gitops repository,
 * against a control plane of this test's own (the Lease is one per management cluster: on the
 * shared one it would hold other tests' backends off).
 */
describe('one installation per management cluster', () => {
  let cp: ControlPlane;
  let admin: AdminClient;
  let kubeconfigPath: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-installation-'));
  const started: Backend[] = [];
  const workloadKubeconfig = () => cp.cluster('management').kubeconfig;

  async function startBackend(id: string, label: string): Promise<Backend> {
    const scheduler = new SerialScheduler();
    const logger = captureLogger();
    const gitops = path.join(tmp, `${label}.git`);
    const backend = await startTestBackend({
      features: [
        infraredPlugin,
        scheduler.factory(),
        createServiceFactory({
          service: coreServices.rootLogger,
          deps: {},
          factory: () => logger,
        }),
        mockServices.rootConfig.factory({
          data: {
            infrared: {
              managementCluster: { kubeconfigPath },
              gitops: { type: 'local', path: gitops },
              installation: { id, leaseDuration: LEASE_DURATION },
            },
          },
        }),
      ],
    });
    const started$ = {
      server: backend.server,
      stop: async () => {
        scheduler.stop();
        await backend.stop();
      },
      scheduler,
      logger,
      gitops,
    };
    started.push(started$);
    return started$;
  }

  const send = (
    b: Backend,
    method: 'get' | 'post' | 'delete',
    url: string,
    body?: object,
  ) => {
    const req = request(b.server)
      [method](`/api/infrared${url}`)
      .set('Authorization', mockCredentials.user.header());
    return body ? req.send(body) : req;
  };
  const installationOf = async (b: Backend) =>
    (await send(b, 'get', '/health')).body.installation;
  const clusterObject = async (name: string) =>
    (await admin.must('GET', `${CLUSTERS_API}/${name}`)).body;
  const registered = (cluster: any) =>
    cluster.status?.conditions?.some(
      (c: any) => c.type === 'Registered' && c.status === 'True',
    );

  let a: Backend;
  let b: Backend;
  const first = 'edge-first';

  beforeAll(async () => {
    cp = await startControlPlane({
      clusters: ['management'],
      ownerPid: process.pid,
    });
    admin = cp.client('management');
    kubeconfigPath = path.join(tmp, 'backend.kubeconfig');
    fs.writeFileSync(
      kubeconfigPath,
      await prepareManagementCluster(cp.cluster('management')),
      { mode: 0o600 },
    );
    a = await startBackend('it-a', 'a');
  });

  const afterAllClose: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of afterAllClose) await close();
    for (const s of started) await s.stop().catch(() => undefined);
    await cp?.stop();
    removeTestDir(tmp);
  });

  it('the first installation holds the Lease, reconciles and writes', async () => {
    expect(await installationOf(a)).toMatchObject({
      id: 'it-a',
      state: 'held',
      lease: 'infrared/infrared-installation',
      managementCluster: 'infrared-mgmt',
    });
    const lease = (await admin.must('GET', LEASE)).body;
    expect(lease.spec).toMatchObject({
      holderIdentity: 'it-a',
      leaseDurationSeconds: 2,
    });
    expect(
      (
        await send(a, 'post', '/v1/clusters', {
          name: first,
          kubeconfig: workloadKubeconfig(),
        })
      ).status,
    ).toBe(201);
    await eventually(
      async () => {
        await a.scheduler.triggerTask(TASK);
        return registered(await clusterObject(first));
      },
      60_000,
      200,
    );
    expect(filesIn(a.gitops)).toContain(appOfApps(first));
  });

  it('a second installation with another id neither reconciles nor writes, says why, and still reads', async () => {
    b = await startBackend('it-b', 'b');
    expect(await installationOf(b)).toMatchObject({
      id: 'it-b',
      state: 'refused',
      holder: 'it-a',
    });
    const before = await clusterObject(first);

    // its writes answer the refusal, naming the holder and the fix
    const post = await send(b, 'post', '/v1/clusters', {
      name: 'edge-second',
      kubeconfig: workloadKubeconfig(),
    });
    expect(post.status).toBe(409);
    expect(post.body.error.message).toContain('installation "it-a" manages');
    expect(post.body.error.message).toContain('infrared.installation.id');
    const remove = await send(b, 'delete', `/v1/clusters/${first}`);
    expect(remove.status).toBe(409);
    // an invalid token: still 401, nothing said of the installation
    const anonymous = await request(b.server)
      .post('/api/infrared/v1/clusters')
      .set('Authorization', mockCredentials.user.invalidHeader())
      .send({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain('it-a');
    // reads work
    const read = await send(b, 'get', `/v1/clusters/${first}`);
    expect(read.status).toBe(200);

    // its reconcile passes leave the first installation's Cluster alone, over several renewals
    for (let i = 0; i < 4; i++) {
      await b.scheduler.triggerTask(TASK);
      await new Promise(r => setTimeout(r, 500));
    }
    const after = await clusterObject(first);
    expect(after.metadata.resourceVersion).toBe(
      before.metadata.resourceVersion,
    );
    expect(after.status).toEqual(before.status);
    expect(filesIn(b.gitops)).not.toContain(appOfApps(first));
    await expect(
      admin.request('GET', `${CLUSTERS_API}/edge-second`),
    ).resolves.toMatchObject({ status: 404 });
    // the error is logged once, naming the other installation
    const errors = b.logger.lines.filter(
      l => l.startsWith('error') && l.includes('installation "it-a" manages'),
    );
    expect(errors).toHaveLength(1);
    // the holder keeps its Lease all along
    expect((await admin.must('GET', LEASE)).body.spec.holderIdentity).toBe(
      'it-a',
    );
  });

  it('a second backend with the same id is a replica of the first: both work', async () => {
    const replica = await startBackend('it-a', 'a-replica');
    expect(await installationOf(replica)).toMatchObject({ state: 'held' });
    expect(
      (
        await send(replica, 'post', '/v1/clusters', {
          name: 'edge-replica',
          kubeconfig: workloadKubeconfig(),
          // an address of its own: the first Cluster keeps this server (issue 23.1)
          server: 'https://127.0.0.1:9/edge-replica',
        })
      ).status,
    ).toBe(201);
    expect(await installationOf(a)).toMatchObject({ state: 'held' });
    // the other installation is still refused
    expect(await installationOf(b)).toMatchObject({
      state: 'refused',
      holder: 'it-a',
    });
    await replica.stop();
  });

  it('when the first installation stops, the second takes over once the Lease expires', async () => {
    await a.stop();
    const stoppedAt = Date.now();
    await eventually(
      async () => (await installationOf(b)).state === 'held',
      30_000,
      100,
    );
    const waited = Date.now() - stoppedAt;
    // not before the Lease expired: a whole duration unchanged
    expect(waited).toBeGreaterThanOrEqual(1_500);
    expect((await admin.must('GET', LEASE)).body.spec).toMatchObject({
      holderIdentity: 'it-b',
    });
    expect(b.logger.text()).toContain(
      'took it over from installation "it-a", whose Lease expired',
    );
    // it writes and reconciles now: the first installation's Cluster is published to its repository
    // (edge-after at an address of its own: the first Cluster keeps the server, issue 23.1)
    const alias = await serverAlias(cp, 'management');
    afterAllClose.push(() => alias.close());
    expect(
      (
        await send(b, 'post', '/v1/clusters', {
          name: 'edge-after',
          kubeconfig: alias.kubeconfig,
        })
      ).status,
    ).toBe(201);
    await eventually(
      async () => {
        await b.scheduler.triggerTask(TASK);
        const files = filesIn(b.gitops);
        return (
          files.includes(appOfApps(first)) &&
          files.includes(appOfApps('edge-after'))
        );
      },
      60_000,
      200,
    );
    // eslint-disable-next-line no-console
    console.log(
      `installation take-over ${waited} ms after the holder stopped (lease 2 s)`,
    );
  });
});
