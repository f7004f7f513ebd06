import { planRegistrarPass } from './plan';
import type {
  NamespaceObject,
  RegistrarAction,
  RegistrarObserved,
  RegistrarPlan,
  RegistrarSecret,
} from './types';
import {
  argo,
  CERT_DATA,
  CLUSTER,
  k3kSecret,
  kubeconfig,
  MANAGED_BY,
  NOW,
  ns,
  options,
  ORPHANED,
  ownedLabels,
  PREFIX,
  PROVIDER,
  PRUNE,
  SECRET_TYPE,
  source,
  SOURCE_NS,
  SOURCE_UID,
  STALE,
  SUPERSEDED,
  text,
  uidOf,
} from './__testUtils__/fixtures';
import { applyPlan, planWithLookups, settle } from './__testUtils__/simulate';

const OPTS = options();

function observe(
  namespaces: NamespaceObject[],
  secrets: RegistrarSecret[],
  extra: Partial<RegistrarObserved> = {},
): RegistrarObserved {
  return { namespaces, secrets, now: NOW, ...extra };
}

const creates = (p: RegistrarPlan) =>
  p.actions.filter(
    (a): a is Extract<RegistrarAction, { type: 'create' }> =>
      a.type === 'create',
  );
const updates = (p: RegistrarPlan) =>
  p.actions.filter(
    (a): a is Extract<RegistrarAction, { type: 'update' }> =>
      a.type === 'update',
  );
const demotes = (p: RegistrarPlan) =>
  p.actions.filter(
    (a): a is Extract<RegistrarAction, { type: 'demote' }> =>
      a.type === 'demote',
  );
const deletes = (p: RegistrarPlan) =>
  p.actions.filter(
    (a): a is Extract<RegistrarAction, { type: 'delete' }> =>
      a.type === 'delete',
  );
const logged = (p: RegistrarPlan, level?: string) =>
  p.logs.filter(l => !level || l.level === level).map(l => l.message);
const reasons = (p: RegistrarPlan) => p.conflicts.map(c => c.reason);

/** A registration as a previous pass left it (settled on the given world). */
function registered(namespaces: NamespaceObject[], sources: RegistrarSecret[]) {
  return settle(observe(namespaces, sources), OPTS).secrets;
}

describe('planRegistrarPass: discovery', () => {
  it('registers a k3k child as cluster-<name> in argocd, shaped as upstream writes it', () => {
    const plan = planRegistrarPass(
      observe(
        [
          ns('k3k-sandbox', {
            cluster: 'sandbox',
            labels: { [`${PREFIX}flux`]: 'true' },
          }),
        ],
        [
          k3kSecret(
            'k3k-sandbox',
            'sandbox',
            kubeconfig({ server: 'https://10.0.0.1:6443/' }),
          ),
        ],
      ),
      OPTS,
    );
    expect(plan.actions).toHaveLength(1);
    const [create] = creates(plan);
    expect(create.secret.metadata).toEqual({
      name: 'cluster-sandbox',
      namespace: 'argocd',
      labels: {
        [SECRET_TYPE]: 'cluster',
        [MANAGED_BY]: 'cluster-registrar',
        [CLUSTER]: 'sandbox',
        [SOURCE_NS]: 'k3k-sandbox',
        [SOURCE_UID]: uidOf('k3k-sandbox'),
        [PROVIDER]: 'k3k',
        [`${PREFIX}flux`]: 'true',
      },
    });
    expect(create.secret.type).toBe('Opaque');
    expect(create.secret.stringData).toEqual({
      name: 'sandbox',
      server: 'https://10.0.0.1:6443',
      config: JSON.stringify({
        tlsClientConfig: {
          insecure: false,
          caData: Buffer.from('CA-PEM').toString('base64'),
          certData: CERT_DATA,
          keyData: Buffer.from('KEY-PEM').toString('base64'),
        },
      }),
    });
    expect(plan.errors).toEqual([]);
    expect(plan.needs).toEqual([]);
  });

  it.each([
    ['vc-config-x sorts before vc-x', 'x'],
    ['vc-config-abc sorts after vc-abc', 'abc'],
  ])(
    "picks vcluster's vc-<name> (key config), never vc-config-<name>: %s",
    (_, name) => {
      const vc = options({ providers: ['vcluster'] });
      const plan = planRegistrarPass(
        observe(
          [ns('team', { cluster: name })],
          [
            source('team', `vc-config-${name}`, {
              'config.yaml': 'exportKubeConfig: {}',
            }),
            source('team', `vc-${name}`, {
              config: kubeconfig({ server: 'https://vc.example:443' }),
            }),
          ],
        ),
        vc,
      );
      const [create] = creates(plan);
      expect(create.server).toBe('https://vc.example:443');
      expect(create.secret.metadata.labels?.[PROVIDER]).toBe('vcluster');
    },
  );

  it.each([
    [
      'no cluster label',
      ns('a', { cluster: null }),
      'warn',
      'namespace is managed but has no cluster label; skipping',
    ],
    [
      'an uppercase cluster name',
      ns('a', { cluster: 'Prod' }),
      'error',
      'cluster name does not yield a valid Secret name; skipping',
    ],
    [
      'a cluster name too long for a Secret name',
      ns('a', { cluster: `${'a'.repeat(60)}.${'b'.repeat(190)}` }),
      'error',
      'cluster name does not yield a valid Secret name; skipping',
    ],
  ])('skips a namespace with %s', (_, namespace, level, message) => {
    const plan = planRegistrarPass(
      observe([namespace], [k3kSecret('a', 'x')]),
      OPTS,
    );
    expect(plan.actions).toEqual([]);
    expect(plan.logs).toContainEqual(
      expect.objectContaining({ level, message }),
    );
  });

  it('says why there is no candidate: nothing matched, or matched without the key', () => {
    const none = planRegistrarPass(
      observe([ns('a')], [source('a', 'other', { x: 'y' })]),
      OPTS,
    );
    expect(none.logs).toContainEqual({
      level: 'info',
      message: 'no kubeconfig secret yet; will retry',
      fields: {
        namespace: 'a',
        cluster: 'a',
        reason: 'no secret matching any configured provider',
      },
    });
    const keyless = planRegistrarPass(
      observe(
        [ns('a')],
        [source('a', 'k3k-a-kubeconfig', { 'wrong.yaml': 'x' })],
      ),
      OPTS,
    );
    expect(keyless.logs[0].fields.reason).toBe(
      'secret(s) [k3k-a-kubeconfig (provider k3k)] matched a provider pattern but carried none of its keys',
    );
    expect(keyless.actions).toEqual([]);
  });

  it.each([
    [
      'the in-cluster address',
      kubeconfig({ server: 'https://kubernetes.default.svc:443' }),
    ],
    [
      'an auth-provider user',
      kubeconfig({ user: { 'auth-provider': { name: 'gcp' } } }),
    ],
    [
      'an exec user on a provider without exec',
      kubeconfig({
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          command: 'aws',
          args: ['eks', 'get-token', '--cluster-name', 'x'],
        },
      }),
    ],
    ['half-written YAML', 'apiVersion: v1\nclusters: [\n'],
  ])('refuses %s and leaves the registration it has alone', (_, bad) => {
    const world = [ns('a')];
    const secrets = registered(world, [k3kSecret('a', 'a')]);
    const broken = secrets.map(s =>
      s.metadata.namespace === 'a' ? k3kSecret('a', 'a', bad) : s,
    );
    const plan = planRegistrarPass(observe(world, broken), OPTS);
    expect(plan.actions).toEqual([]);
    expect(logged(plan, 'warn')).toContain('no usable kubeconfig; skipping');
  });

  it('falls through to the next key and the next Secret when a candidate does not parse', () => {
    const kamaji = options({ providers: ['kamaji'] });
    const plan = planRegistrarPass(
      observe(
        [ns('k')],
        [
          source('k', 'k-admin-kubeconfig', {
            'admin.conf': 'not: [valid',
            'admin.svc': kubeconfig({ server: 'https://k.svc:6443' }),
          }),
        ],
      ),
      kamaji,
    );
    expect(creates(plan)[0].server).toBe('https://k.svc:6443');
    expect(logged(plan, 'debug')).toContain(
      'skipped unusable kubeconfig candidates before this one',
    );
  });

  it('orders candidates by provenance (Secret type +2, controller ownerReference +1) before name', () => {
    const capi = options({ providers: ['capi'] });
    const plan = planRegistrarPass(
      observe(
        [ns('c')],
        [
          source('c', 'a-planted-kubeconfig', {
            value: kubeconfig({ server: 'https://planted:6443' }),
          }),
          source(
            'c',
            'b-owned-kubeconfig',
            { value: kubeconfig({ server: 'https://owned:6443' }) },
            { controller: true },
          ),
          source(
            'c',
            'c-typed-kubeconfig',
            { value: kubeconfig({ server: 'https://typed:6443' }) },
            { type: 'cluster.x-k8s.io/secret' },
          ),
        ],
      ),
      capi,
    );
    expect(creates(plan)[0].server).toBe('https://typed:6443');
    const noType = planRegistrarPass(
      observe(
        [ns('c')],
        [
          source('c', 'a-planted-kubeconfig', {
            value: kubeconfig({ server: 'https://planted:6443' }),
          }),
          source(
            'c',
            'b-owned-kubeconfig',
            { value: kubeconfig({ server: 'https://owned:6443' }) },
            { controller: true },
          ),
        ],
      ),
      capi,
    );
    expect(creates(noType)[0].server).toBe('https://owned:6443');
  });

  it('lets the first provider claim a Secret; a later provider does not see it again', () => {
    const both = options({ providers: ['k3k', 'capi'] });
    const plan = planRegistrarPass(
      observe(
        [ns('a')],
        [
          source('a', 'k3k-a-kubeconfig', {
            'kubeconfig.yaml': kubeconfig({ server: 'https://k3k:6443' }),
            value: kubeconfig({ server: 'https://capi:6443' }),
          }),
        ],
      ),
      both,
    );
    expect(creates(plan)[0].secret.metadata.labels?.[PROVIDER]).toBe('k3k');
    expect(creates(plan)[0].server).toBe('https://k3k:6443');
  });

  it('converts exec credentials only with execCredentials and a provider that allows exec', () => {
    const awsUser = kubeconfig({
      server: 'https://eks.example',
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1beta1',
        command: 'aws',
        args: ['eks', 'get-token', '--cluster-name', 'prod'],
      },
    });
    const world = observe(
      [ns('e')],
      [source('e', 'prod-user-kubeconfig', { value: awsUser })],
    );
    const off = planRegistrarPass(world, options({ providers: ['capa-eks'] }));
    expect(off.actions).toEqual([]);
    const on = planRegistrarPass(
      world,
      options({ providers: ['capa-eks'], execCredentials: true }),
    );
    expect(JSON.parse(creates(on)[0].secret.stringData!.config)).toEqual({
      tlsClientConfig: {
        insecure: false,
        caData: Buffer.from('CA-PEM').toString('base64'),
      },
      awsAuthConfig: { clusterName: 'prod' },
    });
    const custom = planRegistrarPass(
      world,
      options({
        providers: ['user=*-user-kubeconfig=value'],
        execCredentials: true,
      }),
    );
    expect(custom.actions).toEqual([]);
  });

  it('registers nothing from, demotes nothing of and deletes nothing for a terminating namespace', () => {
    const world = [ns('a', { cluster: 'old' })];
    const secrets = registered(world, [k3kSecret('a', 'a')]);
    const plan = planRegistrarPass(
      observe([ns('a', { cluster: 'new', deleting: true })], secrets),
      OPTS,
    );
    expect(plan.actions).toEqual([]);
    expect(logged(plan, 'debug')).toContain('skipping terminating namespace');
    // As upstream: a warning for each registration the terminating namespace keeps alive.
    expect(plan.logs.filter(l => l.level === 'warn')).toEqual([
      {
        level: 'warn',
        message:
          'source namespace still exists but produced no registration; not deleting',
        fields: { secret: 'cluster-old', namespace: 'a' },
      },
    ]);
  });
});

describe('planRegistrarPass: ownership and conflicts', () => {
  const child = [k3kSecret('a', 'a', kubeconfig({ server: 'https://a:6443' }))];

  it('refuses a Secret it does not manage (not_managed) and writes nothing', () => {
    const plan = planRegistrarPass(
      observe(
        [ns('a', { cluster: 'prod' })],
        [
          ...child,
          argo('cluster-prod', { labels: { [SECRET_TYPE]: 'cluster' } }),
        ],
      ),
      OPTS,
    );
    expect(reasons(plan)).toEqual(['not_managed']);
    expect(plan.actions).toEqual([]);
    expect(plan.logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'refused to register cluster',
        fields: expect.objectContaining({
          conflict: 'not_managed',
          cluster: 'prod',
          namespace: 'a',
        }),
      }),
    );
    expect(plan.errors).toEqual([]);
    expect(plan.metrics.conflicts).toEqual({
      not_managed: 1,
      orphan_cluster_mismatch: 0,
      incumbent: 0,
      contested_name: 0,
      create_race: 0,
      server_collision: 0,
    });
  });

  it("refuses another namespace's registration (incumbent), and does not collect for the refused namespace", () => {
    const plan = planRegistrarPass(
      observe(
        [ns('a', { cluster: 'prod' }), ns('b', { cluster: 'b' })],
        [
          ...child,
          argo('cluster-prod', { labels: ownedLabels('prod', 'b') }),
          argo('cluster-old', { labels: ownedLabels('old', 'a') }),
        ],
      ),
      OPTS,
    );
    expect(reasons(plan)).toContain('incumbent');
    expect(demotes(plan).map(d => d.secret.metadata.name)).not.toContain(
      'cluster-old',
    );
  });

  it('adopts an owned Secret recording no source namespace when it names this cluster', () => {
    const labels = ownedLabels('prod', 'x');
    delete labels[SOURCE_NS];
    delete labels[SOURCE_UID];
    const plan = planRegistrarPass(
      observe(
        [ns('a', { cluster: 'prod' })],
        [
          ...child,
          argo('cluster-prod', { labels, data: { server: 'https://a:6443' } }),
        ],
      ),
      OPTS,
    );
    const [update] = updates(plan);
    expect(update.adoption).toBe(true);
    expect(update.secret.metadata.labels?.[SOURCE_NS]).toBe('a');
    expect(update.secret.metadata.resourceVersion).toBe('100');
    expect(plan.metrics.adoptions).toBe(1);
    expect(logged(plan, 'warn')).toContain(
      'adopting an owned cluster secret that records no source namespace',
    );
  });

  it('refuses to adopt an orphan naming another cluster (orphan_cluster_mismatch)', () => {
    const labels = ownedLabels('other', 'x');
    delete labels[SOURCE_NS];
    const plan = planRegistrarPass(
      observe(
        [ns('a', { cluster: 'prod' })],
        [...child, argo('cluster-prod', { labels })],
      ),
      OPTS,
    );
    expect(reasons(plan)).toEqual(['orphan_cluster_mismatch']);
    expect(plan.actions).toEqual([]);
  });

  // Keys run in name order: a loser sorting first is refused as contested_name; one sorting
  // after the winner finds the name already held (incumbent), as upstream's sequential sweep does.
  it.each([
    [
      'the oldest claimant',
      { a: '2026-02-01T00:00:00Z', b: '2026-01-01T00:00:00Z' },
      'b',
      'contested_name',
    ],
    [
      'on a tie, the lexically smaller name',
      { a: '2026-01-01T00:00:00Z', b: '2026-01-01T00:00:00Z' },
      'a',
      'incumbent',
    ],
  ])(
    'gives an unheld name claimed twice to %s',
    (_, created, winner, reason) => {
      const plan = planRegistrarPass(
        observe(
          [
            ns('a', { cluster: 'prod', created: created.a }),
            ns('b', { cluster: 'prod', created: created.b }),
          ],
          [
            k3kSecret('a', 'a', kubeconfig({ server: 'https://a:6443' })),
            k3kSecret('b', 'b', kubeconfig({ server: 'https://b:6443' })),
          ],
        ),
        OPTS,
      );
      expect(creates(plan).map(c => c.namespace)).toEqual([winner]);
      expect(plan.conflicts).toEqual([
        expect.objectContaining({
          reason,
          namespace: winner === 'a' ? 'b' : 'a',
          cluster: 'prod',
        }),
      ]);
    },
  );

  it('refuses the younger claimant even while the older one has no kubeconfig yet', () => {
    const plan = planRegistrarPass(
      observe(
        [
          ns('a', { cluster: 'prod', created: '2025-01-01T00:00:00Z' }),
          ns('b', { cluster: 'prod' }),
        ],
        [k3kSecret('b', 'b')],
      ),
      OPTS,
    );
    expect(plan.actions).toEqual([]);
    expect(reasons(plan)).toEqual(['contested_name']);
  });

  it('does not count a terminating namespace as a claimant', () => {
    const plan = planRegistrarPass(
      observe(
        [
          ns('a', {
            cluster: 'prod',
            created: '2025-01-01T00:00:00Z',
            deleting: true,
          }),
          ns('b', { cluster: 'prod' }),
        ],
        [k3kSecret('b', 'b')],
      ),
      OPTS,
    );
    expect(creates(plan).map(c => c.namespace)).toEqual(['b']);
  });

  it('refuses a second registration of a server address (server_collision), trailing slash trimmed', () => {
    const plan = planRegistrarPass(
      observe(
        [ns('a', { cluster: 'new' })],
        [
          ...child,
          argo('hand-written', {
            labels: { [SECRET_TYPE]: 'cluster' },
            data: { server: 'https://a:6443/' },
          }),
        ],
      ),
      OPTS,
    );
    expect(reasons(plan)).toEqual(['server_collision']);
    expect(plan.conflicts[0].message).toContain(
      'already registered as hand-written (from outside this registrar)',
    );
    expect(plan.actions).toEqual([]);
  });

  it("ignores demoted Secrets and its own namespace's registrations in the server check", () => {
    const plan = planRegistrarPass(
      observe(
        [ns('a', { cluster: 'new' })],
        [
          ...child,
          argo('cluster-old', {
            labels: ownedLabels('old', 'a'),
            data: { server: 'https://a:6443' },
          }),
          argo('cluster-parked', {
            labels: {
              ...ownedLabels('parked', 'z'),
              [SECRET_TYPE]: '',
              [ORPHANED]: 'cluster',
            },
            data: { server: 'https://a:6443' },
          }),
        ],
      ),
      OPTS,
    );
    expect(creates(plan)).toHaveLength(1);
  });

  it('releases the address of an unpinned incumbent whose source namespace is gone; a pinned one keeps it', () => {
    const incumbent = (extra = {}) =>
      argo('cluster-gone', {
        labels: ownedLabels('gone', 'gone', extra),
        data: { server: 'https://a:6443' },
      });
    const world = (inc: RegistrarSecret) =>
      observe([ns('a', { cluster: 'new' })], [...child, inc]);

    const first = planRegistrarPass(world(incumbent()), OPTS);
    expect(first.needs).toEqual(['gone']);

    const released = planWithLookups(world(incumbent()), OPTS);
    expect(creates(released)).toHaveLength(1);
    expect(deletes(released).map(d => d.name)).toEqual(['cluster-gone']);
    expect(logged(released, 'info')).toContain(
      "incumbent registration's source namespace is gone; releasing its address",
    );

    const pinned = planWithLookups(
      world(incumbent({ [PRUNE]: 'disabled' })),
      OPTS,
    );
    expect(reasons(pinned)).toEqual(['server_collision']);
    expect(pinned.conflicts[0].message).toContain(
      `pinned with ${PRUNE}=disabled`,
    );
    expect(deletes(pinned)).toEqual([]);
  });

  it('updates in place when the address moves, warning; refuses when the new address is held', () => {
    const world = [ns('a', { cluster: 'prod' })];
    const settled = registered(world, child);
    const moved = settled.map(s =>
      s.metadata.namespace === 'a'
        ? k3kSecret('a', 'a', kubeconfig({ server: 'https://moved:6443' }))
        : s,
    );
    const plan = planRegistrarPass(observe(world, moved), OPTS);
    expect(updates(plan).map(u => u.server)).toEqual(['https://moved:6443']);
    expect(plan.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        fields: {
          cluster: 'prod',
          from: 'https://a:6443',
          to: 'https://moved:6443',
        },
      }),
    );
    const held = planRegistrarPass(
      observe(world, [
        ...moved,
        argo('other', {
          labels: { [SECRET_TYPE]: 'cluster' },
          data: { server: 'https://moved:6443' },
        }),
      ]),
      OPTS,
    );
    expect(reasons(held)).toEqual(['server_collision']);
    expect(updates(held)).toEqual([]);
  });

  it('rewrites a stored trailing slash without calling it an address change', () => {
    const world = [ns('a', { cluster: 'prod' })];
    const settled = registered(world, child).map(s =>
      s.metadata.name === 'cluster-prod'
        ? {
            ...s,
            data: {
              ...s.data,
              server: Buffer.from('https://a:6443/').toString('base64'),
            },
          }
        : s,
    );
    const plan = planRegistrarPass(
      observe(world, [
        ...settled,
        argo('x', {
          labels: { [SECRET_TYPE]: 'cluster' },
          data: { server: 'https://a:6443' },
        }),
      ]),
      OPTS,
    );
    expect(updates(plan)).toHaveLength(1);
    expect(plan.conflicts).toEqual([]);
    expect(logged(plan, 'warn')).toEqual([]);
  });

  it('simulates namespaces in order: a name freed by an earlier key is created by a later one', () => {
    const plan = planWithLookups(
      observe(
        [ns('b', { cluster: 'prod' })],
        [
          k3kSecret('b', 'b'),
          argo('cluster-prod', { labels: ownedLabels('prod', 'a') }),
        ],
      ),
      OPTS,
    );
    expect(plan.actions.map(a => a.type)).toEqual(['delete', 'create']);
    // b sorts after a: a's collection ran first, so b's apply found the name free.
  });
});

describe('planRegistrarPass: garbage collection', () => {
  const world = [ns('a')];
  const settled = () => registered(world, [k3kSecret('a', 'a')]);

  it('asks for the namespaces it must prove gone, and deletes their registrations with a UID precondition', () => {
    const secrets = settled();
    const first = planRegistrarPass(observe([], secrets), OPTS);
    expect(first.needs).toEqual(['a']);
    expect(first.actions).toEqual([]);
    const plan = planRegistrarPass(
      observe([], secrets, { namespaceLookups: { a: null } }),
      OPTS,
    );
    const reg = secrets.find(s => s.metadata.name === 'cluster-a')!;
    expect(plan.actions).toEqual([
      {
        type: 'delete',
        namespace: 'a',
        name: 'cluster-a',
        uid: reg.metadata.uid,
        reason: 'namespace_gone',
      },
    ]);
  });

  it('keeps a pinned registration of a gone namespace, and never touches Secrets it does not own', () => {
    const secrets = settled().map(s =>
      s.metadata.name === 'cluster-a'
        ? {
            ...s,
            metadata: {
              ...s.metadata,
              labels: { ...s.metadata.labels, [PRUNE]: 'disabled' },
            },
          }
        : s,
    );
    const foreign = argo('cluster-hand', {
      labels: { [SECRET_TYPE]: 'cluster', [SOURCE_NS]: 'a' },
    });
    const plan = planRegistrarPass(
      observe([], [...secrets, foreign], { namespaceLookups: { a: null } }),
      OPTS,
    );
    expect(plan.actions).toEqual([]);
    expect(logged(plan, 'debug')).toContain(
      'registration is pinned; leaving it',
    );
  });

  it('leaves registrations alone when the namespace exists but lost the ownership label', () => {
    const plan = planRegistrarPass(
      observe([], settled(), {
        namespaceLookups: { a: ns('a', { managedBy: null }) },
      }),
      OPTS,
    );
    expect(plan.actions).toEqual([]);
    expect(logged(plan, 'warn')).toContain(
      'namespace no longer carries the ownership label; leaving its registrations alone',
    );
  });

  it('touches nothing for a namespace whose existence could not be read, and reports it', () => {
    const plan = planRegistrarPass(
      observe([], settled(), {
        namespaceLookups: { a: { error: 'GET namespace a: Timeout' } },
      }),
      OPTS,
    );
    expect(plan.actions).toEqual([]);
    expect(plan.errors).toEqual([
      { namespace: 'a', message: 'GET namespace a: Timeout' },
    ]);
  });

  it('deletes registrations of an earlier namespace of the same name (stale UID) and registers anew', () => {
    const secrets = settled();
    const plan = planRegistrarPass(
      observe([ns('a', { uid: 'new-uid' })], secrets),
      OPTS,
    );
    expect(plan.actions.map(a => a.type)).toEqual(['delete', 'create']);
    expect(deletes(plan)[0]).toEqual(
      expect.objectContaining({ reason: 'stale_uid', name: 'cluster-a' }),
    );
    expect(creates(plan)[0].secret.metadata.labels?.[SOURCE_UID]).toBe(
      'new-uid',
    );
  });

  it('deletes stale-UID registrations even when the new namespace has no kubeconfig yet; not pinned ones', () => {
    const secrets = settled().filter(s => s.metadata.namespace !== 'a');
    const plan = planRegistrarPass(
      observe([ns('a', { uid: 'new-uid' })], secrets),
      OPTS,
    );
    expect(deletes(plan).map(d => d.reason)).toEqual(['stale_uid']);
    const pinned = secrets.map(s => ({
      ...s,
      metadata: {
        ...s.metadata,
        labels: { ...s.metadata.labels, [PRUNE]: 'disabled' },
      },
    }));
    expect(
      planRegistrarPass(observe([ns('a', { uid: 'new-uid' })], pinned), OPTS)
        .actions,
    ).toEqual([]);
  });

  it('does not collect when discovery skipped the namespace (no kubeconfig yet)', () => {
    const secrets = registered(
      [ns('a', { cluster: 'old' })],
      [k3kSecret('a', 'a')],
    ).filter(s => s.metadata.namespace !== 'a');
    const plan = planRegistrarPass(
      observe([ns('a', { cluster: 'new' })], secrets),
      OPTS,
    );
    expect(plan.actions).toEqual([]);
  });
});

describe('planRegistrarPass: demotion on rename, TTL and pinning', () => {
  const before = [ns('a', { cluster: 'old' })];
  const after = [ns('a', { cluster: 'new' })];
  const src = [k3kSecret('a', 'a')];

  it('demotes the superseded registration: secret-type parked, superseded-by, stale-since', () => {
    const secrets = registered(before, src);
    const plan = planRegistrarPass(observe(after, secrets), OPTS);
    expect(creates(plan).map(c => c.cluster)).toEqual(['new']);
    const [demote] = demotes(plan);
    expect(demote.secret.metadata.name).toBe('cluster-old');
    const labels = demote.secret.metadata.labels!;
    expect(labels[SECRET_TYPE]).toBeUndefined();
    expect(labels[ORPHANED]).toBe('cluster');
    expect(labels[SUPERSEDED]).toBe('cluster-new');
    expect(labels[STALE]).toBe('20260807T143000Z');
    expect(demote.secret.metadata.resourceVersion).toBeDefined();
    expect(plan.metrics.registrations).toContainEqual({
      state: 'demoted',
      credentialExpiry: 'ok',
      value: 1,
    });
    expect(plan.metrics.registrations).toContainEqual({
      state: 'active',
      credentialExpiry: 'ok',
      value: 1,
    });
  });

  it('restores a demoted registration when the rename is reverted, and demotes the other', () => {
    const renamed = settle(
      observe(after, registered(before, src)),
      OPTS,
    ).secrets;
    const plan = planRegistrarPass(observe(before, renamed), OPTS);
    const [restore] = updates(plan);
    expect(restore.secret.metadata.name).toBe('cluster-old');
    expect(restore.secret.metadata.labels?.[SECRET_TYPE]).toBe('cluster');
    for (const k of [ORPHANED, SUPERSEDED, STALE]) {
      expect(restore.secret.metadata.labels?.[k]).toBeUndefined();
    }
    expect(demotes(plan).map(d => d.secret.metadata.name)).toEqual([
      'cluster-new',
    ]);
  });

  it('deletes a demoted registration once older than the TTL (UID and resourceVersion preconditions)', () => {
    const renamed = settle(
      observe(after, registered(before, src)),
      OPTS,
    ).secrets;
    const old = renamed.find(s => s.metadata.name === 'cluster-old')!;
    const at = (now: Date, ttl: string) =>
      planRegistrarPass(
        observe(after, renamed, { now }),
        options({ demotedTtl: ttl }),
      );
    expect(at(new Date('2026-08-08T14:30:00Z'), '0').actions).toEqual([]);
    expect(at(new Date('2026-08-08T14:29:00Z'), '24h').actions).toEqual([]);
    expect(at(new Date('2026-08-08T14:31:00Z'), '24h').actions).toEqual([
      {
        type: 'delete',
        namespace: 'a',
        name: 'cluster-old',
        uid: old.metadata.uid,
        resourceVersion: old.metadata.resourceVersion,
        reason: 'demoted_ttl',
      },
    ]);
  });

  it('keeps a demoted registration whose stale-since does not parse', () => {
    const renamed = settle(
      observe(after, registered(before, src)),
      OPTS,
    ).secrets.map(s =>
      s.metadata.name === 'cluster-old'
        ? {
            ...s,
            metadata: {
              ...s.metadata,
              labels: { ...s.metadata.labels, [STALE]: 'yesterday' },
            },
          }
        : s,
    );
    const plan = planRegistrarPass(
      observe(after, renamed),
      options({ demotedTtl: '1s' }),
    );
    expect(plan.actions).toEqual([]);
    expect(logged(plan, 'warn')).toContain(
      'demoted registration has no readable stale-since; keeping it',
    );
  });

  it('never demotes a pinned registration', () => {
    const secrets = registered(before, src).map(s =>
      s.metadata.name === 'cluster-old'
        ? {
            ...s,
            metadata: {
              ...s.metadata,
              labels: { ...s.metadata.labels, [PRUNE]: 'disabled' },
            },
          }
        : s,
    );
    const plan = planRegistrarPass(observe(after, secrets), OPTS);
    expect(demotes(plan)).toEqual([]);
  });

  it('demotes without superseded-by when "cluster-<new>" is not a valid label value', () => {
    const long = 'n'.repeat(60);
    const secrets = registered(before, src);
    const plan = planRegistrarPass(
      observe([ns('a', { cluster: long })], secrets),
      OPTS,
    );
    const [demote] = demotes(plan);
    expect(demote.secret.metadata.labels?.[SUPERSEDED]).toBeUndefined();
    expect(demote.secret.metadata.labels?.[ORPHANED]).toBe('cluster');
    expect(logged(plan, 'warn')).toContain(
      'superseded-by would not be a valid label value; demoting without it',
    );
  });
});

describe('planRegistrarPass: propagation and preservation', () => {
  it('copies prefixed labels (project and shard too) but none of the reserved ones', () => {
    const plan = planRegistrarPass(
      observe(
        [
          ns('a', {
            labels: {
              [`${PREFIX}project`]: 'p',
              [`${PREFIX}shard`]: '2',
              [`${PREFIX}source-namespace`]: 'kube-system',
              [`${PREFIX}prune`]: 'disabled',
              [`${PREFIX}provider`]: 'fake',
              [`${PREFIX}stale-since`]: 'x',
              'other.io/flux': 'true',
            },
          }),
        ],
        [k3kSecret('a', 'a')],
      ),
      OPTS,
    );
    const labels = creates(plan)[0].secret.metadata.labels!;
    expect(labels[`${PREFIX}project`]).toBe('p');
    expect(labels[`${PREFIX}shard`]).toBe('2');
    expect(labels[SOURCE_NS]).toBe('a');
    expect(labels[PROVIDER]).toBe('k3k');
    expect(labels[PRUNE]).toBeUndefined();
    expect(labels[STALE]).toBeUndefined();
    expect(labels['other.io/flux']).toBeUndefined();
  });

  it('propagates prefixed annotations within their limits, in sorted order, warning on each dropped one', () => {
    const annotations: Record<string, string> = {
      [`${PREFIX}a-url`]: 'https://example.com/x',
      [`${PREFIX}b-big`]: 'x'.repeat(4097),
      [`${PREFIX}cluster`]: 'reserved',
      'foreign/thing': 'no',
    };
    for (let i = 0; i < 40; i++)
      annotations[`${PREFIX}k${String(i).padStart(2, '0')}`] = 'v';
    const plan = planRegistrarPass(
      observe([ns('a', { annotations })], [k3kSecret('a', 'a')]),
      OPTS,
    );
    const got = creates(plan)[0].secret.metadata.annotations!;
    expect(Object.keys(got)).toHaveLength(32);
    expect(got[`${PREFIX}a-url`]).toBe('https://example.com/x');
    expect(got[`${PREFIX}b-big`]).toBeUndefined();
    expect(got[`${PREFIX}k30`]).toBe('v');
    expect(got[`${PREFIX}k31`]).toBeUndefined();
    expect(got[`${PREFIX}cluster`]).toBeUndefined();
    expect(got['foreign/thing']).toBeUndefined();
    const warned = plan.logs
      .filter(l => l.level === 'warn')
      .map(l => l.fields.reason);
    expect(warned.filter(r => r === 'value_too_large')).toHaveLength(1);
    expect(warned.filter(r => r === 'too_many_keys')).toHaveLength(9);
  });

  it('bounds the total size of propagated annotations (32 KiB)', () => {
    const annotations: Record<string, string> = {};
    for (let i = 0; i < 10; i++)
      annotations[`${PREFIX}big${i}`] = 'y'.repeat(4000);
    const plan = planRegistrarPass(
      observe([ns('a', { annotations })], [k3kSecret('a', 'a')]),
      OPTS,
    );
    const got = creates(plan)[0].secret.metadata.annotations!;
    expect(Object.keys(got)).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map(i => `${PREFIX}big${i}`),
    );
    expect(
      plan.logs.filter(l => l.fields.reason === 'total_too_large'),
    ).toHaveLength(2);
  });

  it('on update keeps foreign labels, annotations, finalizers and extra data keys; sweeps stale prefixed keys but the pin', () => {
    const world = [
      ns('a', {
        labels: { [`${PREFIX}flux`]: 'true' },
        annotations: { [`${PREFIX}note`]: 'n' },
      }),
    ];
    const settled = registered(world, [k3kSecret('a', 'a')]);
    const decorated = settled.map(s => {
      if (s.metadata.name !== 'cluster-a') return s;
      return {
        ...s,
        metadata: {
          ...s.metadata,
          finalizers: ['example.com/keep'],
          labels: {
            ...s.metadata.labels,
            'team.io/owner': 'me',
            [PRUNE]: 'disabled',
            [`${PREFIX}stray`]: 'x',
          },
          annotations: {
            ...s.metadata.annotations,
            'argocd.argoproj.io/refresh': 'now',
            [PRUNE]: 'disabled',
            [`${PREFIX}old`]: 'o',
          },
        },
        data: {
          ...s.data,
          namespaces: Buffer.from('a,b').toString('base64'),
          project: Buffer.from('platform').toString('base64'),
          clusterResources: Buffer.from('true').toString('base64'),
        },
      };
    });
    const rotated = decorated.map(s =>
      s.metadata.namespace === 'a'
        ? k3kSecret(
            'a',
            'a',
            kubeconfig({ key: Buffer.from('NEW-KEY').toString('base64') }),
          )
        : s,
    );
    const plan = planRegistrarPass(
      observe([ns('a', { annotations: { [`${PREFIX}note`]: 'n' } })], rotated),
      OPTS,
    );
    const [update] = updates(plan);
    const m = update.secret.metadata;
    expect(m.finalizers).toEqual(['example.com/keep']);
    expect(m.labels?.['team.io/owner']).toBe('me');
    expect(m.labels?.[PRUNE]).toBe('disabled');
    expect(m.labels?.[`${PREFIX}stray`]).toBeUndefined();
    expect(m.labels?.[`${PREFIX}flux`]).toBeUndefined();
    expect(m.annotations).toEqual({
      'argocd.argoproj.io/refresh': 'now',
      [PRUNE]: 'disabled',
      [`${PREFIX}note`]: 'n',
    });
    expect(text(update.secret, 'namespaces')).toBe('a,b');
    expect(text(update.secret, 'project')).toBe('platform');
    expect(text(update.secret, 'clusterResources')).toBe('true');
    expect(
      JSON.parse(text(update.secret, 'config')!).tlsClientConfig.keyData,
    ).toBe(Buffer.from('NEW-KEY').toString('base64'));
  });
});

describe('planRegistrarPass: write only when changed', () => {
  const world = [
    ns('a', {
      labels: { [`${PREFIX}flux`]: 'true' },
      annotations: { [`${PREFIX}url`]: 'https://x' },
    }),
    ns('b', { cluster: 'bee' }),
  ];
  const sources = [
    k3kSecret('a', 'a'),
    k3kSecret('b', 'b', kubeconfig({ server: 'https://b:6443' })),
  ];

  it('plans nothing on a steady pass', () => {
    const settled = registered(world, sources);
    const plan = planRegistrarPass(observe(world, settled), OPTS);
    expect(plan.actions).toEqual([]);
    expect(plan.needs).toEqual([]);
    expect(plan.metrics.registrations.filter(r => r.value)).toEqual([
      { state: 'active', credentialExpiry: 'ok', value: 2 },
    ]);
  });

  it('ignores a pin, foreign labels, foreign annotations and Argo CD keys it does not own', () => {
    const settled = registered(world, sources).map(s =>
      s.metadata.name === 'cluster-a'
        ? {
            ...s,
            metadata: {
              ...s.metadata,
              labels: {
                ...s.metadata.labels,
                [PRUNE]: 'disabled',
                'x.io/y': 'z',
              },
              annotations: { ...s.metadata.annotations, 'x.io/y': 'z' },
            },
            data: { ...s.data, project: Buffer.from('p').toString('base64') },
          }
        : s,
    );
    expect(planRegistrarPass(observe(world, settled), OPTS).actions).toEqual(
      [],
    );
  });

  it.each([
    [
      'a rotated credential',
      (o: RegistrarObserved) => ({
        ...o,
        secrets: o.secrets.map(s =>
          s.metadata.name === 'k3k-a-kubeconfig'
            ? k3kSecret('a', 'a', kubeconfig({ token: 't' }))
            : s,
        ),
      }),
    ],
    [
      'a label dropped upstream',
      (o: RegistrarObserved) => ({
        ...o,
        namespaces: [
          ns('a', { annotations: { [`${PREFIX}url`]: 'https://x' } }),
          world[1],
        ],
      }),
    ],
    [
      'an annotation changed upstream',
      (o: RegistrarObserved) => ({
        ...o,
        namespaces: [
          ns('a', {
            labels: { [`${PREFIX}flux`]: 'true' },
            annotations: { [`${PREFIX}url`]: 'https://y' },
          }),
          world[1],
        ],
      }),
    ],
  ])('writes exactly one update for %s', (_, change) => {
    const settled = observe(world, registered(world, sources));
    const plan = planRegistrarPass(change(settled), OPTS);
    expect(plan.actions.map(a => a.type)).toEqual(['update']);
  });
});

describe('planRegistrarPass: audit', () => {
  it('counts owned registrations by state and credential expiry, and unrouted ones', () => {
    const noSource = ownedLabels('lost', 'x');
    delete noSource[SOURCE_NS];
    const plan = planRegistrarPass(
      observe(
        [],
        [
          argo('cluster-tok', {
            labels: ownedLabels('tok', 'z'),
            data: {
              config:
                '{"bearerToken":"t","tlsClientConfig":{"insecure":false}}',
            },
          }),
          argo('cluster-lost', {
            labels: noSource,
            data: { config: 'not json' },
          }),
          argo('cluster-x', { labels: { [SECRET_TYPE]: 'cluster' } }),
        ],
        { namespaceLookups: { z: ns('z', { managedBy: null }) } },
      ),
      OPTS,
    );
    expect(plan.metrics.unroutedSecrets).toBe(1);
    const nonZero = plan.metrics.registrations.filter(r => r.value);
    expect(nonZero).toEqual([
      { state: 'active', credentialExpiry: 'token', value: 1 },
      { state: 'active', credentialExpiry: 'unreadable', value: 1 },
    ]);
    expect(plan.metrics.registrations).toHaveLength(18);
  });
});

describe('applyPlan helper sanity', () => {
  it('settles a world in one pass', () => {
    const o = observe([ns('a')], [k3kSecret('a', 'a')]);
    const once = applyPlan(o, planRegistrarPass(o, OPTS));
    expect(planRegistrarPass(once, OPTS).actions).toEqual([]);
  });
});
