import { getTestControlPlane, uniqueName } from '@internal/devenv';
import {
  argoConnectionFor,
  inspectKubeconfig,
} from '@infrared-clusters/plugin-infrared-common';
import { KubeClient, kubeConfigFromText } from './client';
import { RequestCounter } from './counter';
import { KubeClusterProber } from './clusterProber';
import type { ProbeTarget } from './probe';

jest.setTimeout(120_000);

describe('the prober lists nodes again only when its count is old', () => {
  const cp = getTestControlPlane();
  const workload = cp.cluster('workload-a');
  const admin = KubeClient.fromKubeconfig(workload.kubeconfig);
  const nodeName = uniqueName('count-node');

  afterAll(async () => {
    await admin.request('DELETE', `/api/v1/nodes/${nodeName}`);
  });

  function argoTarget(): ProbeTarget {
    const inspection = inspectKubeconfig(workload.kubeconfig, {
      refuseInClusterServer: true,
    });
    if (!inspection.ok) throw new Error('the workload kubeconfig is refused');
    const argo = argoConnectionFor(inspection);
    if (!argo.ok) throw new Error('no Argo CD connection');
    return { kind: 'argo', server: argo.server, config: argo.config };
  }

  const liveNodeCount = async () =>
    (await admin.must('GET', '/api/v1/nodes')).body.items.length as number;

  it('probes in full once per full-probe interval, and in between only checks the address', async () => {
    const counter = new RequestCounter();
    let now = 0;
    const prober = new KubeClusterProber(
      new KubeClient(kubeConfigFromText(cp.cluster('management').kubeconfig)),
      { counter, fullProbeMs: 60_000, now: () => now },
    );
    const target = argoTarget();
    const first = await prober.probe(target);
    expect(first).toMatchObject({ ok: true, nodes: await liveNodeCount() });
    expect(counter.total).toBe(2);

    await admin.must('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: nodeName },
    });
    now = 59_000;
    const cached = await prober.probe(target);
    expect(counter.total).toBe(2); // a TCP check, no request
    expect(cached).toMatchObject({ ok: true, nodes: (first as any).nodes });

    now = 60_000;
    const recounted = await prober.probe(target);
    expect(counter.total).toBe(4); // /version and the nodes
    expect(recounted).toMatchObject({ ok: true, nodes: await liveNodeCount() });
    expect((recounted as any).nodes).toBe((first as any).nodes + 1);
  });
});
