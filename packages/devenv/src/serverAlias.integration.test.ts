import net from 'node:net';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { serverAlias } from './serverAlias';
import { getTestControlPlane } from './testing';

jest.setTimeout(60_000);

describe('serverAlias', () => {
  const cp = getTestControlPlane();

  it("reaches the cluster at an address of its own, TLS verified with the cluster's CA, until closed", async () => {
    const a = await serverAlias(cp, 'workload-a');
    const b = await serverAlias(cp.statePath, 'workload-a');
    try {
      expect(a.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(
        new Set([a.server, b.server, cp.cluster('workload-a').server]).size,
      ).toBe(3);
      expect(a.target).toBe(cp.cluster('workload-a').server);
      const client = KubeClient.fromKubeconfig(a.kubeconfig);
      expect(client.server).toBe(a.server);
      const res = await client.must('GET', '/api/v1/namespaces/default');
      expect(res.body.metadata.name).toBe('default');
    } finally {
      await b.close();
    }
    await a.close();
    const { port } = new URL(a.server);
    const refused = await new Promise<string>(resolve => {
      const s = net.connect(Number(port), '127.0.0.1');
      s.on('connect', () => {
        s.destroy();
        resolve('connected');
      });
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});
