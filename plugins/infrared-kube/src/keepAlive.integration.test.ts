import diagnostics from 'node:diagnostics_channel';
import { getTestControlPlane } from '@internal/devenv';
import {
  argoConnectionFor,
  inspectKubeconfig,
} from '@infrared-clusters/plugin-infrared-common';
import { KubeClient, kubeConfigFromText } from './client';
import { KubeClusterProber, type ProbeTarget } from './probe';

jest.setTimeout(120_000);

/** Counts the TCP connections this process opens to `port` while `fn` runs. */
async function connectionsTo(port: number, fn: () => Promise<unknown>) {
  let opened = 0;
  const onSocket = ({ socket }: any) =>
    socket.once('connect', () => {
      if (socket.remotePort === port) opened++;
    });
  diagnostics.subscribe('net.client.socket', onSocket);
  try {
    await fn();
  } finally {
    diagnostics.unsubscribe('net.client.socket', onSocket);
  }
  return opened;
}

describe('one keep-alive connection per API server', () => {
  const cp = getTestControlPlane();
  const workload = cp.cluster('workload-a');
  const management = cp.cluster('management');
  const portOf = (server: string) => Number(new URL(server).port);

  it('a client sends 10 requests over one connection, not one TLS handshake each', async () => {
    const client = new KubeClient(kubeConfigFromText(management.kubeconfig));
    const opened = await connectionsTo(portOf(management.server), async () => {
      for (let i = 0; i < 10; i++) await client.core.listNamespace();
    });
    expect(opened).toBe(1);
  });

  it('the prober reuses its connection to a workload cluster across probes', async () => {
    const inspection = inspectKubeconfig(workload.kubeconfig, {
      refuseInClusterServer: true,
    });
    if (!inspection.ok) throw new Error('the workload kubeconfig is refused');
    const argo = argoConnectionFor(inspection);
    if (!argo.ok) throw new Error('no Argo CD connection');
    const target: ProbeTarget = {
      kind: 'argo',
      server: argo.server,
      config: argo.config,
    };
    const prober = new KubeClusterProber(
      new KubeClient(kubeConfigFromText(management.kubeconfig)),
    );
    const opened = await connectionsTo(portOf(workload.server), async () => {
      for (let i = 0; i < 5; i++) {
        expect(await prober.probe(target)).toMatchObject({ ok: true });
      }
    });
    // 5 probes of 2 requests each (/version, the Node LIST): one connection
    expect(opened).toBe(1);
  });
});
