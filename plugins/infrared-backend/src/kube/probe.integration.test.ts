import {
  createNodes,
  getTestControlPlane,
  KubeClient as DevKubeClient,
  uniqueName,
} from '@internal/devenv';
import { inspectKubeconfig } from '@infrared-clusters/plugin-infrared-common';
import {
  KubeClient,
  KubeClusterProber,
  kubeConfigFromText,
  probeCluster,
} from '@infrared-clusters/infrared-kube';
import {
  deleteServiceAccount,
  tokenKubeconfig,
  withCa,
  withServer,
} from './__testUtils__/workload';

jest.setTimeout(120_000);

/** Probes of a real kube-apiserver (devenv's workload-a), one per failure a human must act on. */
describe('probeCluster on a real API server', () => {
  const cp = getTestControlPlane();
  const workload = cp.cluster('workload-a');
  const management = cp.cluster('management');
  const prober = new KubeClusterProber(
    new KubeClient(kubeConfigFromText(management.kubeconfig)),
  );
  const probe = (kubeconfig: string, timeoutMs?: number) => {
    const inspection = inspectKubeconfig(kubeconfig);
    if (!inspection.ok) throw new Error(JSON.stringify(inspection.errors));
    return new KubeClusterProber(
      new KubeClient(kubeConfigFromText(management.kubeconfig)),
      { timeoutMs },
    ).probe({
      kind: 'argo',
      server: inspection.server,
      config: inspection.argoConfig,
    });
  };
  let nodes: number;

  beforeAll(async () => {
    await createNodes(workload, 2, uniqueName('probe-node'));
    const list = await DevKubeClient.fromKubeconfig(workload.kubeconfig).must(
      'GET',
      '/api/v1/nodes',
    );
    nodes = list.body.items.length;
  });

  it('reads the version and counts the nodes with a client certificate', async () => {
    const result = await probe(workload.kubeconfig);
    expect(result).toEqual({
      ok: true,
      kubernetesVersion: expect.stringMatching(/^v1\.\d+\.\d+/),
      nodes: expect.any(Number),
    });
    expect((result as { nodes: number }).nodes).toBeGreaterThanOrEqual(nodes);
  });

  it('counts the same nodes when the LIST comes in pages', async () => {
    const client = new KubeClient(kubeConfigFromText(workload.kubeconfig));
    const whole = await probeCluster(client);
    const paged = await probeCluster(client, { pageSize: 1 });
    expect(paged.ok && paged.nodes).toBeGreaterThanOrEqual(2);
    expect(paged).toEqual(whole);
  });

  it('reads the version with a ServiceAccount token', async () => {
    const kc = await tokenKubeconfig(workload, uniqueName('probe-sa'));
    const result = await probe(kc);
    expect(result.ok).toBe(true);
  });

  it('says Unauthorized for a revoked token, and nothing of the token', async () => {
    const name = uniqueName('probe-revoked');
    const kc = await tokenKubeconfig(workload, name);
    await deleteServiceAccount(workload, name);
    const result = await probe(kc);
    expect(result).toMatchObject({ ok: false, reason: 'Unauthorized' });
    const token = /token: (\S+)/.exec(kc)![1];
    expect(JSON.stringify(result)).not.toContain(token);
  });

  it('says Forbidden and which permission for a user that may not list nodes', async () => {
    const kc = await tokenKubeconfig(
      workload,
      uniqueName('probe-view'),
      'view',
    );
    const result = await probe(kc);
    expect(result).toMatchObject({ ok: false, reason: 'Forbidden' });
    expect((result as { message: string }).message).toMatch(/list nodes/);
  });

  it('says CertificateNotTrusted when the kubeconfig trusts another CA', async () => {
    const result = await probe(withCa(workload.kubeconfig, management.caData));
    expect(result).toMatchObject({
      ok: false,
      reason: 'CertificateNotTrusted',
    });
    expect((result as { message: string }).message).toMatch(
      /not trusted|not issued/,
    );
  });

  it('says Unreachable when nothing listens', async () => {
    const result = await probe(
      withServer(workload.kubeconfig, 'https://127.0.0.1:1'),
    );
    expect(result).toMatchObject({ ok: false, reason: 'Unreachable' });
    expect((result as { message: string }).message).toContain('ECONNREFUSED');
  });

  it('says Timeout within the bound when the server never answers', async () => {
    // A TCP server that accepts and then says nothing.
    const net = require('node:net') as typeof import('node:net');
    const sockets: import('node:net').Socket[] = [];
    const server = net.createServer(s => sockets.push(s));
    await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const started = Date.now();
      const result = await probe(
        withServer(workload.kubeconfig, `https://127.0.0.1:${port}`),
        1500,
      );
      expect(result).toMatchObject({ ok: false, reason: 'Timeout' });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      sockets.forEach(s => s.destroy());
      server.close();
    }
  });

  it('probes the management cluster itself with the management client', async () => {
    const result = await prober.probe({ kind: 'inCluster' });
    expect(result.ok).toBe(true);
  });
});
