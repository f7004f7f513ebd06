import {
  clusterForRequest,
  INFRARED_NAMESPACE,
  kubeconfigSecret,
} from '@infrared-clusters/plugin-infrared-common';
import { startHarness, type Harness } from '../api/__testUtils__/harness';
import { CA, kubeconfigText, SERVER } from './__testUtils__/fixtures';

const kubeconfigFor = (server: string) =>
  kubeconfigText(undefined, { server, 'certificate-authority-data': CA });

function writes(h: Harness) {
  const verbs = h.api.counter.byVerb();
  return (
    (verbs.POST ?? 0) +
    (verbs.PUT ?? 0) +
    (verbs.PATCH ?? 0) +
    (verbs.DELETE ?? 0)
  );
}

/** Waits until the passes an earlier write started have stopped writing. */
async function settled(h: Harness): Promise<number> {
  let last = writes(h);
  let quiet = 0;
  for (let i = 0; i < 200 && quiet < 4; i++) {
    await new Promise(r => setTimeout(r, 50));
    const now = writes(h);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

const post = (h: Harness, body: object) =>
  h.send('post', '/v1/clusters', { body });

const nothingFor = (h: Harness, name: string) => {
  expect(h.api.clusterStore.has(name)).toBe(false);
  expect(
    h.api.secretStore.has(`${INFRARED_NAMESPACE}/cluster-${name}-kubeconfig`),
  ).toBe(false);
};

describe('POST /v1/clusters: one registration per API server (issue 23)', () => {
  it.each([
    ['the same kubeconfig server', { kubeconfig: kubeconfigFor(SERVER) }],
    [
      'the server with a trailing slash',
      { kubeconfig: kubeconfigFor(`${SERVER}/`) },
    ],
    [
      'spec.server naming it',
      {
        kubeconfig: kubeconfigFor('https://198.51.100.7:6443'),
        server: `${SERVER}/`,
      },
    ],
  ])(
    'refuses %s with 409 naming the first Cluster, which wins; writes nothing',
    async (_case, second) => {
      const h = await startHarness();
      expect(
        (await post(h, { name: 'edge', kubeconfig: kubeconfigFor(SERVER) }))
          .status,
      ).toBe(201);
      const before = await settled(h);
      const res = await post(h, { name: 'edge-two', ...second });
      expect(res.status).toBe(409);
      const message: string = res.body.error.message;
      expect(message).toContain(
        `server ${SERVER} is already registered as cluster edge`,
      );
      expect(message).toMatch(/existing registration wins/);
      expect(message).toMatch(/remove cluster edge first/);
      expect(writes(h)).toBe(before);
      nothingFor(h, 'edge-two');
    },
  );

  it("refuses a server a registrar child's Argo CD Secret has, naming the child", async () => {
    const h = await startHarness();
    await h.api.secrets.create({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name: 'cluster-sandbox',
        namespace: 'argocd',
        labels: {
          'argocd.argoproj.io/secret-type': 'cluster',
          'argocd-cluster-registrar/managed-by': 'cluster-registrar',
          'argocd-cluster-registrar/source-namespace': 'k3k-sandbox',
        },
      },
      stringData: { name: 'sandbox', server: `${SERVER}/` },
    });
    const before = await settled(h);
    const res = await post(h, {
      name: 'edge',
      kubeconfig: kubeconfigFor(SERVER),
    });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain(
      `server ${SERVER} is already registered as the registrar's child cluster sandbox (Secret argocd/cluster-sandbox`,
    );
    expect(res.body.error.message).toMatch(/from namespace k3k-sandbox/);
    expect(res.body.error.message).toMatch(/existing registration wins/);
    expect(writes(h)).toBe(before);
    nothingFor(h, 'edge');
  });

  it('registers different servers, and inCluster beside the management cluster', async () => {
    const h = await startHarness();
    for (const [name, server] of [
      ['edge', SERVER],
      ['edge-two', 'https://198.51.100.7:6443'],
    ]) {
      const res = await post(h, { name, kubeconfig: kubeconfigFor(server) });
      expect(res.status).toBe(201);
    }
    expect((await post(h, { name: 'local', inCluster: true })).status).toBe(
      201,
    );
    await settled(h);
  });

  it('lets one of two registrations of one server sent at once through, and refuses the other', async () => {
    const h = await startHarness();
    const answers = await Promise.all(
      ['edge-a', 'edge-b'].map(name =>
        post(h, { name, kubeconfig: kubeconfigFor(SERVER) }),
      ),
    );
    expect(answers.map(a => a.status).sort()).toEqual([201, 409]);
    const refused = answers.find(a => a.status === 409)!;
    expect(refused.body.error.message).toMatch(
      /already registered as cluster edge-/,
    );
    await settled(h);
  });

  it("reads a Cluster's kubeconfig once per version, not on every registration", async () => {
    const h = await startHarness();
    // made with kubectl and not reconciled yet: no status.argoServer, the server is the kubeconfig's
    for (let i = 0; i < 20; i++) {
      const name = `edge-${i}`;
      const kubeconfig = kubeconfigFor(`https://198.51.100.${i + 1}:6443`);
      await h.api.secrets.create(
        kubeconfigSecret({ clusterName: name, kubeconfig }),
      );
      await h.api.clusters.create(clusterForRequest({ name, kubeconfig }));
    }
    const gets = () => h.api.counter.byVerb().GET ?? 0;
    const taken = await post(h, {
      name: 'late',
      kubeconfig: kubeconfigFor('https://198.51.100.7:6443'),
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/registered as cluster edge-6/);
    // a Cluster's kubeconfig is read once per version of the Cluster, not on every registration
    const before = gets();
    const again = await post(h, {
      name: 'later',
      kubeconfig: kubeconfigFor('https://198.51.100.8:6443'),
    });
    expect(again.status).toBe(409);
    // the name checks (a Cluster and an Argo CD Secret of that name), not one a Cluster
    expect(gets() - before).toBeLessThan(5);
  });
});
