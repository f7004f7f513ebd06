import {
  etcdEvents,
  etcdKey,
  etcdRevision,
  eventually,
  recordRecovery,
  startControlPlane,
  type ControlPlane,
} from '@internal/devenv';
import { parse, stringify } from 'yaml';
import {
  KubeClient,
  kubeConfigFromText,
} from '@infrared-clusters/infrared-kube';
import { KubeRegistrarApi } from './api';
import { runRegistrarPass } from './executor';
import { resolveRegistrarOptions } from './options';
import { captureLogger } from './__testUtils__/recorders';

jest.setTimeout(180_000);

const P = 'argocd-cluster-registrar/';
const CHILDREN = 80;
const MANAGED_BY = 'fault-registrar';
const TARGET = 'argocd';

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
 * Issue 17, "management API server restarted mid-pass", for the registrar: a pass over many new
 * k3k children on a control plane of this test's own, whose kube-apiserver is killed while the
 * pass writes and started again. Every Secret write is read back from etcd's history.
 */
describe('the management API server killed during a registrar pass', () => {
  let cp: ControlPlane;
  const clusters = Array.from({ length: CHILDREN }, (_, i) => `child-${i}`);

  const pass = (api: KubeRegistrarApi) => {
    const log = captureLogger();
    return runRegistrarPass(
      api,
      resolveRegistrarOptions({
        managedBy: MANAGED_BY,
        targetNamespace: TARGET,
        providers: ['k3k'],
      }).options,
      { logger: log.logger },
    );
  };

  beforeAll(async () => {
    cp = await startControlPlane({
      clusters: ['management'],
      ownerPid: process.pid,
    });
    const admin = cp.client('management');
    await admin.must('POST', '/api/v1/namespaces', {
      metadata: { name: TARGET },
    });
    await Promise.all(
      clusters.map(async cluster => {
        const ns = `k3k-${cluster}`;
        await admin.must('POST', '/api/v1/namespaces', {
          metadata: {
            name: ns,
            labels: {
              [`${P}managed-by`]: MANAGED_BY,
              [`${P}cluster`]: cluster,
            },
          },
        });
        // a server of its own (the registrar never registers two children at one server, and
        // never dials one): data, under loopback's *.localhost
        const kubeconfig = parse(cp.cluster('management').kubeconfig);
        kubeconfig.clusters[0].cluster.server = `https://${cluster}.localhost:6443`;
        await admin.must('POST', `/api/v1/namespaces/${ns}/secrets`, {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `k3k-${cluster}-kubeconfig` },
          stringData: { 'kubeconfig.yaml': stringify(kubeconfig) },
        });
      }),
    );
  });

  afterAll(() => cp?.stop());

  it('loses no Secret, writes none twice, and the next pass registers every child', async () => {
    const { etcdUrl } = cp.state;
    const argoPrefix = `${etcdKey('management', 'secrets', TARGET)}/`;
    const api = new KubeRegistrarApi(
      new KubeClient(kubeConfigFromText(cp.cluster('management').kubeconfig)),
    );
    const from = (await etcdRevision(etcdUrl)).revision + 1;

    const interrupted = pass(api).then(
      report => report.errors.length,
      (e: Error) => e.message,
    );
    await eventually(
      async () => (await etcdRevision(etcdUrl, argoPrefix)).count >= 5,
      60_000,
      10,
    );
    const crashedAt = Date.now();
    await cp.stopApiserver('management', { crash: true });
    const writtenBeforeCrash = (await etcdRevision(etcdUrl, argoPrefix)).count;
    expect(writtenBeforeCrash).toBeLessThan(CHILDREN);
    // the interrupted pass ends, and says it failed
    expect(await within(60_000, 'the interrupted pass', interrupted)).not.toBe(
      0,
    );
    const interruptedEnded = Date.now();

    await cp.startApiserver('management');
    const ready = Date.now();
    const next = await within(120_000, 'the next pass', pass(api));
    const converged = Date.now();
    expect(next.errors).toEqual([]);
    expect(next.created).toBe(CHILDREN - writtenBeforeCrash);

    const admin = cp.client('management');
    const registered = (
      await admin.must(
        'GET',
        `/api/v1/namespaces/${TARGET}/secrets?labelSelector=${encodeURIComponent(
          `${P}managed-by=${MANAGED_BY}`,
        )}`,
      )
    ).body.items.map((s: any) => s.metadata.name);
    expect(registered.sort()).toEqual(clusters.map(c => `cluster-${c}`).sort());

    // every Secret write since the pass began, up to a marker written after it
    const marker = `zz-end-${Date.now()}`;
    await admin.must('POST', `/api/v1/namespaces/${TARGET}/secrets`, {
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
    for (const cluster of clusters) {
      // created once, never rewritten or deleted
      expected[etcdKey('management', 'secrets', TARGET, `cluster-${cluster}`)] =
        ['PUT@1'];
    }
    expect(writes).toEqual(expected);

    const steady = await pass(api);
    expect(steady.writes).toBe(0);

    recordRecovery('management API server killed mid registrar pass', {
      children: CHILDREN,
      argoSecretsBeforeCrash: writtenBeforeCrash,
      crashToPassEndMs: interruptedEnded - crashedAt,
      restartToReadyMs: ready - interruptedEnded,
      readyToConvergedMs: converged - ready,
    });
  });
});
