import diagnostics from 'node:diagnostics_channel';
import { getTestControlPlane } from '@internal/devenv';
import {
  argoConnectionFor,
  inspectKubeconfig,
} from '@infrared-clusters/plugin-infrared-common';
import { KubeClient, kubeConfigFromText } from './client';
import { KubeClusterProber } from './clusterProber';
import { MAX_CONNECTIONS_PER_CLIENT } from './keepAlive';
import type { ProbeTarget } from './probe';

jest.setTimeout(120_000);

/** The TCP connections this process opens to `port` while `fn` runs: how many, and how many sent anything. */
async function connectionsOpened(port: number, fn: () => Promise<unknown>) {
  const sockets: any[] = [];
  const onSocket = ({ socket }: any) =>
    socket.once('connect', () => {
      if (socket.remotePort === port) sockets.push(socket);
    });
  diagnostics.subscribe('net.client.socket', onSocket);
  try {
    await fn();
  } finally {
    diagnostics.unsubscribe('net.client.socket', onSocket);
  }
  const sent = sockets.filter(socket => socket.bytesWritten > 0).length;
  return { opened: sockets.length, sent };
}

/** Counts the TCP connections this process opens to `port` while `fn` runs. */
async function connectionsTo(port: number, fn: () => Promise<unknown>) {
  return (await connectionsOpened(port, fn)).opened;
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

  it('200 requests at once open at most MAX_CONNECTIONS_PER_CLIENT connections, the others wait for one, and every answer arrives whole', async () => {
    const client = new KubeClient(kubeConfigFromText(management.kubeconfig));
    const answers: number[] = [];
    const opened = await connectionsTo(portOf(management.server), () =>
      Promise.all(
        Array.from({ length: 200 }, () =>
          // every namespace: an answer long enough to come chunked, as a status write's does
          client.core
            .listNamespace()
            .then(list => answers.push(list.items.length)),
        ),
      ),
    );
    expect(answers).toHaveLength(200);
    // before: a TLS connection per request in flight (668 at once in bench/scale's burst of 1,000)
    expect(opened).toBeLessThanOrEqual(MAX_CONNECTIONS_PER_CLIENT);
    expect(opened).toBeGreaterThan(1);
  });

  it('the prober probes a workload cluster in full once, then checks its address without TLS', async () => {
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
      { fullProbeMs: 10 * 60_000 },
    );
    const first = await prober.probe(target);
    expect(first).toMatchObject({ ok: true });
    const { opened, sent } = await connectionsOpened(
      portOf(workload.server),
      async () => {
        for (let i = 0; i < 4; i++) {
          expect(await prober.probe(target)).toEqual(first);
        }
      },
    );
    // within the full probe's interval: a TCP connection a probe that sends nothing, no TLS
    expect({ opened, sent }).toEqual({ opened: 4, sent: 0 });
  });
});
