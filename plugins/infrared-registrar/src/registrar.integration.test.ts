import {
  ensureDemoChild,
  eventually,
  getTestControlPlane,
  uniqueName,
  type KubeClient as DevenvClient,
} from '@internal/devenv';
import { KubeConfig, VersionApi } from '@kubernetes/client-node';
import { parse, stringify } from 'yaml';
import {
  KubeClient,
  kubeConfigFromText,
  managementApi,
} from '@infrared-clusters/infrared-kube';
import { KubeRegistrarApi, type RegistrarApi } from './api';
import { listDiscoveredClusters } from './discovered';
import { runRegistrarPass } from './executor';
import { RegistrarMetrics, REGISTRAR_METRIC_NAMES } from './metrics';
import { resolveRegistrarOptions, type RegistrarInput } from './options';
import { captureLogger, recordingMeter } from './__testUtils__/recorders';
import { LiveChildren } from './__testUtils__/liveChildren';

jest.setTimeout(180_000);

const P = 'argocd-cluster-registrar/';
const cp = getTestControlPlane();
const management = cp.cluster('management');
const workload = cp.cluster('workload-a');
const admin: DevenvClient = cp.client('management');
const kube = new KubeClient(kubeConfigFromText(management.kubeconfig));
const api = new KubeRegistrarApi(kube);

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/** workload-a's admin kubeconfig, with its server spelled as given (127.0.0.1 or localhost). */
function workloadKubeconfig(
  host: '127.0.0.1' | 'localhost' = '127.0.0.1',
): string {
  const doc = parse(workload.kubeconfig);
  for (const c of doc.clusters) {
    c.cluster.server = c.cluster.server.replace('127.0.0.1', host);
  }
  return stringify(doc);
}

const children = new LiveChildren(admin);
const createNamespace = children.createNamespace.bind(children);

async function putSecret(
  ns: string,
  name: string,
  data: Record<string, string>,
  type = 'Opaque',
) {
  const body = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: ns },
    type,
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
  const path = `/api/v1/namespaces/${ns}/secrets`;
  const res = await admin.request('POST', path, body);
  if (res.status === 409) {
    const live = await admin.must('GET', `${path}/${name}`);
    body.metadata = { ...live.body.metadata };
    await admin.must('PUT', `${path}/${name}`, body);
  } else if (res.status >= 300) {
    throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

async function getSecret(ns: string, name: string): Promise<any | undefined> {
  const res = await admin.request(
    'GET',
    `/api/v1/namespaces/${ns}/secrets/${name}`,
  );
  return res.status === 404 ? undefined : res.body;
}

async function deleteNamespaceAndWait(name: string) {
  await admin.must('DELETE', `/api/v1/namespaces/${name}`, undefined, [404]);
  await eventually(
    async () =>
      (await admin.request('GET', `/api/v1/namespaces/${name}`)).status === 404,
    120_000,
  );
}

/** One isolated registrar: its own managed-by value and its own target namespace. */
async function registrar(input: RegistrarInput = {}) {
  const managedBy = uniqueName('reg');
  const targetNamespace = uniqueName('argocd');
  await createNamespace(targetNamespace, {});
  const base = { managedBy, targetNamespace, ...input };
  const pass = async (
    more: RegistrarInput = {},
    deps: { api?: RegistrarApi; now?: Date } = {},
  ) => {
    const log = captureLogger();
    const meter = recordingMeter();
    const report = await runRegistrarPass(
      deps.api ?? api,
      resolveRegistrarOptions({ ...base, ...more }).options,
      {
        logger: log.logger,
        metrics: new RegistrarMetrics(meter.meter),
        ...(deps.now ? { now: () => deps.now! } : {}),
      },
    );
    return { report, log, meter };
  };
  const child = async (
    cluster: string,
    opts: {
      kubeconfig?: string;
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
      finalizers?: string[];
      name?: string;
      vcluster?: boolean;
    } = {},
  ) => {
    const ns = opts.name ?? uniqueName(opts.vcluster ? 'vc' : 'k3k');
    const obj = await createNamespace(
      ns,
      {
        [`${P}managed-by`]: managedBy,
        [`${P}cluster`]: cluster,
        ...opts.labels,
      },
      { annotations: opts.annotations, finalizers: opts.finalizers },
    );
    const text = opts.kubeconfig ?? workloadKubeconfig();
    if (opts.vcluster) {
      await putSecret(ns, `vc-config-${cluster}`, {
        'config.yaml': 'exportKubeConfig:\n  server: https://x\n',
      });
      await putSecret(ns, `vc-${cluster}`, { config: text });
    } else {
      await putSecret(ns, `k3k-${cluster}-kubeconfig`, {
        'kubeconfig.yaml': text,
      });
    }
    return { ns, uid: obj.metadata.uid as string };
  };
  return {
    managedBy,
    targetNamespace,
    pass,
    child,
    argo: (name: string) => getSecret(targetNamespace, name),
  };
}

afterAll(() => children.cleanUp());

describe('registrar on a real control plane', () => {
  it('registers k3k and vcluster children; the written Secret reaches workload-a; a steady pass makes 2 requests and no write', async () => {
    const r = await registrar({ providers: ['k3k', 'vcluster'] });
    const k = await r.child(uniqueName('kid'), {
      labels: { [`${P}flux`]: 'true' },
      annotations: { [`${P}docs`]: 'https://example.com/docs', other: 'x' },
    });
    const kCluster = (await admin.must('GET', `/api/v1/namespaces/${k.ns}`))
      .body.metadata.labels[`${P}cluster`];
    const vCluster = uniqueName('vid');
    const v = await r.child(vCluster, {
      vcluster: true,
      kubeconfig: workloadKubeconfig('localhost'),
    });

    const first = await r.pass();
    expect(first.report.errors).toEqual([]);
    expect(first.report.created).toBe(2);
    // Namespaces and Secret metadata; the data of the three Secrets a provider matches (vc-config
    // too: vc-* matches it); the target namespace's names because it creates.
    expect(first.report.requestsByVerb).toEqual({ LIST: 6, POST: 2 });
    expect(first.report.fetched).toBe(3);

    const ks = await r.argo(`cluster-${kCluster}`);
    expect(ks.type).toBe('Opaque');
    expect(ks.metadata.labels).toEqual({
      'argocd.argoproj.io/secret-type': 'cluster',
      [`${P}managed-by`]: r.managedBy,
      [`${P}cluster`]: kCluster,
      [`${P}source-namespace`]: k.ns,
      [`${P}source-namespace-uid`]: k.uid,
      [`${P}provider`]: 'k3k',
      [`${P}flux`]: 'true',
    });
    expect(ks.metadata.annotations).toEqual({
      [`${P}docs`]: 'https://example.com/docs',
    });
    expect(unb64(ks.data.name)).toBe(kCluster);
    expect(unb64(ks.data.server)).toBe(workload.server);

    const vs = await r.argo(`cluster-${vCluster}`);
    expect(vs.metadata.labels[`${P}provider`]).toBe('vcluster');
    expect(vs.metadata.labels[`${P}source-namespace`]).toBe(v.ns);
    expect(unb64(vs.data.server)).toBe(
      workload.server.replace('127.0.0.1', 'localhost'),
    );

    // Argo CD's view: connect with the Secret's server and config alone.
    for (const secret of [ks, vs]) {
      const config = JSON.parse(unb64(secret.data.config));
      expect(config.tlsClientConfig.insecure).toBe(false);
      const kc = new KubeConfig();
      kc.loadFromClusterAndUser(
        {
          name: 'argo',
          server: unb64(secret.data.server),
          caData: config.tlsClientConfig.caData,
          skipTLSVerify: false,
        },
        {
          name: 'argo',
          certData: config.tlsClientConfig.certData,
          keyData: config.tlsClientConfig.keyData,
          token: config.bearerToken,
        },
      );
      const version = await kc.makeApiClient(VersionApi).getCode();
      expect(version.gitVersion).toMatch(/^v1\.37\./);
    }

    const steady = await r.pass();
    expect(steady.report.requests).toBe(2);
    expect(steady.report.writes).toBe(0);
    expect(
      steady.meter.value(REGISTRAR_METRIC_NAMES.registrations, {
        state: 'active',
        credential_expiry: 'ok',
      }),
    ).toBe(2);

    const listed = await listDiscoveredClusters(managementApi(kube).secrets, {
      targetNamespace: r.targetNamespace,
      managedBy: r.managedBy,
    });
    expect(
      listed.map(c => [c.name, c.sourceNamespace, c.provider, c.state]).sort(),
    ).toEqual(
      [
        [kCluster, k.ns, 'k3k', 'active'],
        [vCluster, v.ns, 'vcluster', 'active'],
      ].sort(),
    );
  });

  it("registers the child cluster that `devenv up` adds for the demo (devenv's ensureDemoChild), at a server other than the workload cluster's own", async () => {
    // The providers of app-config.yaml; the demo's labels with this registrar's managed-by value.
    const r = await registrar({ providers: ['k3k', 'vcluster'] });
    const name = uniqueName('sandbox');
    const child = await ensureDemoChild(management, workload, {
      name,
      managedBy: r.managedBy,
    });
    children.created.push(child.namespace);
    try {
      const { report } = await r.pass();
      expect(report.errors).toEqual([]);
      expect(report.created).toBe(1);
      const listed = await listDiscoveredClusters(managementApi(kube).secrets, {
        targetNamespace: r.targetNamespace,
        managedBy: r.managedBy,
      });
      const port = new URL(workload.server).port;
      expect(listed).toEqual([
        {
          name,
          secret: `cluster-${name}`,
          server: `https://localhost:${port}`,
          sourceNamespace: `k3k-${name}`,
          provider: 'k3k',
          state: 'active',
        },
      ]);
      // Registering workload-a by its own kubeconfig (127.0.0.1) makes no second Secret for one server.
      expect(listed[0].server).not.toBe(workload.server);
      const config = JSON.parse(
        unb64((await r.argo(`cluster-${name}`)).data.config),
      );
      expect(config.bearerToken).toMatch(/^ey/);
      expect(config).not.toHaveProperty('tlsClientConfig.certData');
    } finally {
      await cp
        .client('workload-a')
        .request(
          'DELETE',
          `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/infrared-demo-${name}-cluster-admin`,
        );
    }
  });

  it('writes nothing in dry-run', async () => {
    const r = await registrar({ dryRun: true });
    const c = uniqueName('dry');
    await r.child(c);
    const { report, log } = await r.pass();
    expect(report.writes).toBe(0);
    expect(report.requestsByVerb).toEqual({ LIST: 4 });
    expect(log.messages('info')).toContain(
      '[dry-run] would create cluster secret',
    );
    expect(await r.argo(`cluster-${c}`)).toBeUndefined();
  });

  it('refuses not_managed, incumbent, contested_name, server_collision and orphan_cluster_mismatch; adopts a matching orphan', async () => {
    const r = await registrar();
    const hand = uniqueName('hand');
    await putSecret(r.targetNamespace, `cluster-${hand}`, {
      name: hand,
      server: 'https://198.51.100.1',
    });
    await r.child(hand, { kubeconfig: workloadKubeconfig('localhost') });

    const shared = uniqueName('shared');
    const older = await r.child(shared);
    const first = await r.pass();
    expect(first.report.conflicts.map(c => c.reason)).toEqual(['not_managed']);
    expect(first.report.created).toBe(1);

    // A younger namespace claiming the held name: incumbent. One with a new name but the same server: server_collision.
    await r.child(shared, { kubeconfig: workloadKubeconfig('localhost') });
    await r.child(uniqueName('dup'));
    // Two new claimants of one unheld name: the older wins, the younger is contested.
    // The younger one is named to sort first, so it is evaluated before the name is held.
    const contested = uniqueName('cont');
    const a = await r.child(contested, {
      name: uniqueName('zz'),
      kubeconfig: b64kc('https://192.0.2.10:6443'),
    });
    await new Promise(res => setTimeout(res, 1100));
    await r.child(contested, {
      name: uniqueName('aa'),
      kubeconfig: b64kc('https://192.0.2.11:6443'),
    });
    const second = await r.pass();
    expect(second.report.conflicts.map(c => c.reason).sort()).toEqual(
      ['contested_name', 'incumbent', 'not_managed', 'server_collision'].sort(),
    );
    expect(
      (await r.argo(`cluster-${contested}`)).metadata.labels[
        `${P}source-namespace`
      ],
    ).toBe(a.ns);
    expect(
      (await r.argo(`cluster-${shared}`)).metadata.labels[
        `${P}source-namespace`
      ],
    ).toBe(older.ns);
    expect(
      second.meter.value(REGISTRAR_METRIC_NAMES.conflicts, {
        reason: 'server_collision',
      }),
    ).toBe(1);

    // Orphans: an owned Secret with no source namespace.
    const orphan = uniqueName('orph');
    const mismatch = uniqueName('mism');
    const owned = (cluster: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: `cluster-${cluster}`,
        labels: {
          [`${P}managed-by`]: r.managedBy,
          [`${P}cluster`]: cluster === mismatch ? 'someone-else' : cluster,
        },
      },
      data: { name: b64(cluster), server: b64('https://203.0.113.9') },
    });
    await admin.must(
      'POST',
      `/api/v1/namespaces/${r.targetNamespace}/secrets`,
      owned(orphan),
    );
    await admin.must(
      'POST',
      `/api/v1/namespaces/${r.targetNamespace}/secrets`,
      owned(mismatch),
    );
    await r.child(orphan, { kubeconfig: b64kc('https://192.0.2.20:6443') });
    await r.child(mismatch, { kubeconfig: b64kc('https://192.0.2.21:6443') });
    const third = await r.pass();
    expect(third.report.conflicts.map(c => c.reason)).toContain(
      'orphan_cluster_mismatch',
    );
    expect(third.meter.value(REGISTRAR_METRIC_NAMES.adoptions)).toBe(1);
    const adopted = await r.argo(`cluster-${orphan}`);
    expect(adopted.metadata.labels[`${P}source-namespace`]).toBeTruthy();
    expect(unb64(adopted.data.server)).toBe('https://192.0.2.20:6443');
  });

  it('refuses a Helm release Secret named cluster-<name> as not_managed, without a CREATE on any pass', async () => {
    const r = await registrar();
    const c = uniqueName('helm');
    await r.child(c);
    await putSecret(
      r.targetNamespace,
      `cluster-${c}`,
      { release: 'H4sI' },
      'helm.sh/release.v1',
    );
    for (let i = 0; i < 2; i++) {
      const { report } = await r.pass();
      // The kubeconfig's data on the first pass only.
      expect(report.requestsByVerb).toEqual({ LIST: i ? 3 : 4 });
      expect(report.conflicts.map(x => x.reason)).toEqual(['not_managed']);
      expect(report.errors).toEqual([]);
    }
    expect((await r.argo(`cluster-${c}`)).type).toBe('helm.sh/release.v1');
  });

  it('reports create_race when the Secret appears between the read and the create', async () => {
    const r = await registrar();
    const c = uniqueName('race');
    await r.child(c);
    const racing: RegistrarApi = Object.create(api);
    racing.createSecret = async (secret, signal) => {
      await putSecret(r.targetNamespace, secret.metadata.name, {
        name: 'someone',
      });
      return api.createSecret(secret, signal);
    };
    const { report } = await r.pass({}, { api: racing });
    expect(report.conflicts.map(x => x.reason)).toEqual(['create_race']);
    expect(report.errors).toEqual([]);
  });

  it('updates read-modify-write: foreign labels, annotations and Argo CD keys survive; stale prefixed keys but the pin go', async () => {
    const r = await registrar();
    const c = uniqueName('rmw');
    const { ns } = await r.child(c, { annotations: { [`${P}a`]: '1' } });
    await r.pass();
    const live = await r.argo(`cluster-${c}`);
    live.metadata.labels = {
      ...live.metadata.labels,
      'team.io/owner': 'me',
      [`${P}prune`]: 'disabled',
      [`${P}stray`]: 'x',
    };
    live.metadata.annotations = {
      ...live.metadata.annotations,
      'argocd.argoproj.io/note': 'keep',
      [`${P}old`]: 'go',
    };
    live.data = {
      ...live.data,
      project: b64('platform'),
      namespaces: b64('a,b'),
    };
    await admin.must(
      'PUT',
      `/api/v1/namespaces/${r.targetNamespace}/secrets/${live.metadata.name}`,
      live,
    );

    await admin.must(
      'PATCH',
      `/api/v1/namespaces/${ns}`,
      { metadata: { annotations: { [`${P}a`]: '2' } } },
      [],
      'application/merge-patch+json',
    );
    const { report } = await r.pass();
    expect(report.updated).toBe(1);
    const after = await r.argo(`cluster-${c}`);
    expect(after.metadata.labels['team.io/owner']).toBe('me');
    expect(after.metadata.labels[`${P}prune`]).toBe('disabled');
    expect(after.metadata.labels[`${P}stray`]).toBeUndefined();
    expect(after.metadata.annotations).toEqual({
      'argocd.argoproj.io/note': 'keep',
      [`${P}a`]: '2',
    });
    expect(unb64(after.data.project)).toBe('platform');
    expect(unb64(after.data.namespaces)).toBe('a,b');
    expect((await r.pass()).report.writes).toBe(0);
  });

  it('demotes on rename, restores on revert, deletes past the TTL, and never touches a pinned one', async () => {
    const r = await registrar();
    const oldName = uniqueName('old');
    const newName = uniqueName('new');
    const { ns } = await r.child(oldName);
    await r.pass();
    const relabel = (cluster: string) =>
      admin.must(
        'PATCH',
        `/api/v1/namespaces/${ns}`,
        { metadata: { labels: { [`${P}cluster`]: cluster } } },
        [],
        'application/merge-patch+json',
      );

    await relabel(newName);
    const renamed = await r.pass();
    expect(renamed.report).toMatchObject({
      created: 1,
      demoted: 1,
      errors: [],
    });
    const demoted = await r.argo(`cluster-${oldName}`);
    expect(
      demoted.metadata.labels['argocd.argoproj.io/secret-type'],
    ).toBeUndefined();
    expect(demoted.metadata.labels[`${P}orphaned-secret-type`]).toBe('cluster');
    expect(demoted.metadata.labels[`${P}superseded-by`]).toBe(
      `cluster-${newName}`,
    );
    expect(demoted.metadata.labels[`${P}stale-since`]).toMatch(
      /^\d{8}T\d{6}Z$/,
    );

    await relabel(oldName);
    const reverted = await r.pass();
    expect(reverted.report).toMatchObject({ updated: 1, demoted: 1 });
    const restored = await r.argo(`cluster-${oldName}`);
    expect(restored.metadata.labels['argocd.argoproj.io/secret-type']).toBe(
      'cluster',
    );
    expect(restored.metadata.labels[`${P}stale-since`]).toBeUndefined();

    // cluster-<new> is now demoted: a TTL deletes it once old enough, unless pinned.
    const later = new Date(Date.now() + 2 * 3_600_000);
    const pinned = await r.argo(`cluster-${newName}`);
    pinned.metadata.labels[`${P}prune`] = 'disabled';
    await admin.must(
      'PUT',
      `/api/v1/namespaces/${r.targetNamespace}/secrets/${pinned.metadata.name}`,
      pinned,
    );
    expect(
      (await r.pass({ demotedTtl: '1h' }, { now: later })).report.deleted,
    ).toBe(0);
    const unpinned = await r.argo(`cluster-${newName}`);
    delete unpinned.metadata.labels[`${P}prune`];
    await admin.must(
      'PUT',
      `/api/v1/namespaces/${r.targetNamespace}/secrets/${unpinned.metadata.name}`,
      unpinned,
    );
    expect(
      (await r.pass({ demotedTtl: '3h' }, { now: later })).report.deleted,
    ).toBe(0);
    const ttl = await r.pass({ demotedTtl: '1h' }, { now: later });
    expect(ttl.report.deleted).toBe(1);
    expect(ttl.log.messages('info')).toContain(
      'deleted demoted registration past its TTL',
    );
    expect(await r.argo(`cluster-${newName}`)).toBeUndefined();
    expect(await r.argo(`cluster-${oldName}`)).toBeDefined();
  });

  it('leaves a terminating namespace alone, deletes once it is gone (UID precondition), keeps a pinned one', async () => {
    const r = await registrar();
    const c = uniqueName('gone');
    const pinnedCluster = uniqueName('pin');
    const { ns } = await r.child(c, { finalizers: ['example.com/hold'] });
    const pinnedNs = await r.child(pinnedCluster, {
      kubeconfig: workloadKubeconfig('localhost'),
    });
    await r.pass();
    const pin = await r.argo(`cluster-${pinnedCluster}`);
    pin.metadata.labels[`${P}prune`] = 'disabled';
    await admin.must(
      'PUT',
      `/api/v1/namespaces/${r.targetNamespace}/secrets/${pin.metadata.name}`,
      pin,
    );

    await admin.must('DELETE', `/api/v1/namespaces/${ns}`);
    await admin.must('DELETE', `/api/v1/namespaces/${pinnedNs.ns}`);
    await eventually(
      async () =>
        !!(
          await admin.must('GET', `/api/v1/namespaces/${ns}`)
        ).body.metadata.deletionTimestamp,
    );
    const terminating = await r.pass();
    expect(terminating.report.writes).toBe(0);
    expect(await r.argo(`cluster-${c}`)).toBeDefined();

    await admin.must(
      'PATCH',
      `/api/v1/namespaces/${ns}`,
      { metadata: { finalizers: null } },
      [],
      'application/merge-patch+json',
    );
    await eventually(
      async () =>
        (await admin.request('GET', `/api/v1/namespaces/${ns}`)).status === 404,
      120_000,
    );
    await eventually(
      async () =>
        (
          await admin.request('GET', `/api/v1/namespaces/${pinnedNs.ns}`)
        ).status === 404,
      120_000,
    );
    const gone = await r.pass();
    expect(gone.report.deleted).toBe(1);
    expect(gone.report.requestsByVerb).toEqual({ LIST: 2, GET: 2, DELETE: 1 });
    expect(await r.argo(`cluster-${c}`)).toBeUndefined();
    expect(await r.argo(`cluster-${pinnedCluster}`)).toBeDefined();
    const steady = await r.pass();
    expect(steady.report.writes).toBe(0);
  });

  it('replaces the registration of a namespace recreated under the same name (stale UID)', async () => {
    const r = await registrar();
    const c = uniqueName('reborn');
    const name = uniqueName('k3k');
    const first = await r.child(c, { name });
    await r.pass();
    const before = await r.argo(`cluster-${c}`);
    expect(before.metadata.labels[`${P}source-namespace-uid`]).toBe(first.uid);
    await deleteNamespaceAndWait(name);
    const second = await r.child(c, { name });
    expect(second.uid).not.toBe(first.uid);
    const { report, log } = await r.pass();
    expect(report).toMatchObject({ deleted: 1, created: 1, errors: [] });
    expect(log.messages('info')).toContain(
      'deregistered cluster (source namespace was recreated under the same name)',
    );
    const after = await r.argo(`cluster-${c}`);
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.metadata.labels[`${P}source-namespace-uid`]).toBe(second.uid);
  });

  it('isolates a namespace whose write the API server refuses: the others still register', async () => {
    const r = await registrar();
    const bad = uniqueName('bad');
    const policy = uniqueName('deny-registrar');
    await admin.must(
      'POST',
      '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies',
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: policy },
        spec: {
          failurePolicy: 'Fail',
          matchConstraints: {
            resourceRules: [
              {
                apiGroups: [''],
                apiVersions: ['v1'],
                operations: ['CREATE'],
                resources: ['secrets'],
              },
            ],
          },
          validations: [
            {
              expression: `object.metadata.name != 'cluster-${bad}'`,
              message: 'refused by the test policy',
            },
          ],
        },
      },
    );
    await admin.must(
      'POST',
      '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings',
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: policy },
        spec: {
          policyName: policy,
          validationActions: ['Deny'],
          matchResources: {
            namespaceSelector: {
              matchLabels: { 'kubernetes.io/metadata.name': r.targetNamespace },
            },
          },
        },
      },
    );
    try {
      await eventually(async () => {
        const res = await admin.request(
          'POST',
          `/api/v1/namespaces/${r.targetNamespace}/secrets`,
          {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: `cluster-${bad}`, labels: { probe: 'true' } },
          },
        );
        if (res.status < 300) {
          await admin.must(
            'DELETE',
            `/api/v1/namespaces/${r.targetNamespace}/secrets/cluster-${bad}`,
          );
          return false;
        }
        return true;
      });
      await r.child(bad, { kubeconfig: b64kc('https://192.0.2.30:6443') });
      const good = uniqueName('good');
      await r.child(good, { kubeconfig: b64kc('https://192.0.2.31:6443') });
      const { report, log } = await r.pass();
      expect(report.created).toBe(1);
      expect(report.errors).toHaveLength(1);
      expect(report.errors[0]).toContain('refused by the test policy');
      expect(log.messages('error')).toContain(
        'failed to create cluster secret',
      );
      expect(await r.argo(`cluster-${good}`)).toBeDefined();
    } finally {
      await admin.request(
        'DELETE',
        `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/${policy}`,
      );
      await admin.request(
        'DELETE',
        `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/${policy}`,
      );
    }
  });
});

/** A token kubeconfig for an address nothing listens on (the registrar never connects). */
function b64kc(server: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'c',
        cluster: { server, 'certificate-authority-data': b64('CA') },
      },
    ],
    users: [{ name: 'u', user: { token: 'not-a-real-token' } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'c',
  });
}
