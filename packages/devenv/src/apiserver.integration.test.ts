import fs from 'node:fs';
import { readState, startControlPlane } from './controlPlane';
import { isRunning } from './processes';

jest.setTimeout(120_000);

const apiserver = (procs: { name: string }[]) =>
  procs.find(p => p.name === 'kube-apiserver/solo')!;

describe('stopping and starting one kube-apiserver in place', () => {
  it('keeps the port, certificates and etcd data across a graceful stop and a crash', async () => {
    const cp = await startControlPlane({
      clusters: ['solo'],
      ownerPid: process.pid,
    });
    try {
      const client = cp.client('solo');
      await client.must('POST', '/api/v1/namespaces/default/configmaps', {
        metadata: { name: 'kept' },
        data: { answer: '42' },
      });
      const first = { ...apiserver(cp.state.processes) } as any;

      await cp.stopApiserver('solo');
      expect(isRunning(first)).toBe(false);
      await expect(client.request('GET', '/readyz')).rejects.toThrow(
        /ECONNREFUSED/,
      );

      await cp.startApiserver('solo');
      const second = apiserver(cp.state.processes) as any;
      expect(second.pid).not.toBe(first.pid);
      expect(isRunning(second)).toBe(true);
      // the same kubeconfig (server, CA, client certificate) reaches the same data
      const kept = await client.must(
        'GET',
        '/api/v1/namespaces/default/configmaps/kept',
      );
      expect(kept.body.data).toEqual({ answer: '42' });
      expect(apiserver(readState(cp.statePath).processes)).toMatchObject({
        pid: second.pid,
      });

      await cp.stopApiserver('solo', { crash: true });
      expect(isRunning(second)).toBe(false);
      await cp.startApiserver('solo');
      expect(
        (await client.must('GET', '/api/v1/namespaces/default/configmaps/kept'))
          .body.data,
      ).toEqual({ answer: '42' });
      // each restarted process gets a watchdog of its own
      expect(
        cp.state.processes.filter(p => p.name === 'watchdog'),
      ).toHaveLength(3);
    } finally {
      await cp.stop();
    }
    expect(cp.state.processes.filter(isRunning)).toEqual([]);
    expect(fs.existsSync(cp.state.baseDir)).toBe(false);
  });

  it('refuses to start a kube-apiserver that still runs', async () => {
    const cp = await startControlPlane({ clusters: ['solo'] });
    try {
      await expect(cp.startApiserver('solo')).rejects.toThrow(/still running/);
      await expect(cp.stopApiserver('nope')).rejects.toThrow(
        /no kube-apiserver for cluster nope/,
      );
    } finally {
      await cp.stop();
    }
  });
});
