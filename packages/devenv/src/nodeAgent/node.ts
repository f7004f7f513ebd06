/**
 * The node agent's Node: registered once, with the labels devenv gives its nodes, kept Ready by a
 * heartbeat that patches its status and renews its Lease in kube-node-lease, as a kubelet does, and
 * given the unscheduled Pods it takes (devenv has no scheduler).
 */
import os from 'node:os';
import type { KubeClient } from '@infrared-clusters/infrared-kube';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';

const microTime = () =>
  new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** Creates the Node `name` unless it exists (no kubelet behind it unless an agent runs). */
export async function ensureNode(
  client: KubeClient,
  name: string,
  labels: Record<string, string>,
): Promise<void> {
  await client.createIfAbsent('/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, ...labels },
    },
  });
}

/** A Ready node's status: loopback address, the kubelet port, this machine's capacity. */
export function nodeStatus(nodeName: string, kubeletPort: number) {
  const now = new Date().toISOString();
  const resources = {
    cpu: String(os.cpus().length),
    memory: `${Math.floor(os.totalmem() / 1024 / 1024)}Mi`,
    pods: '110',
  };
  return {
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'devenv node agent is posting ready status',
        lastHeartbeatTime: now,
        lastTransitionTime: now,
      },
    ],
    // InternalIP only: the API server tries a Hostname address first, and the node's name
    // resolves nowhere (no DNS lookup may leave this machine)
    addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
    daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
    capacity: resources,
    allocatable: resources,
    nodeInfo: {
      machineID: nodeName,
      systemUUID: nodeName,
      bootID: String(process.pid),
      kernelVersion: os.release(),
      osImage: 'devenv node agent (local processes)',
      containerRuntimeVersion: 'devenv://local-process',
      kubeletVersion: 'v1.37.2',
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: os.arch() === 'x64' ? 'amd64' : os.arch(),
    },
  };
}

/** One heartbeat: the Node's status, then its Lease (created on the first beat). */
export async function nodeHeartbeat(
  client: KubeClient,
  name: string,
  kubeletPort: number,
): Promise<void> {
  await client.must(
    'PATCH',
    `/api/v1/nodes/${name}/status`,
    { status: nodeStatus(name, kubeletPort) },
    [],
    'application/merge-patch+json',
  );
  const spec = {
    holderIdentity: name,
    leaseDurationSeconds: 40,
    renewTime: microTime(),
  };
  const res = await client.request(
    'PATCH',
    `${LEASES}/${name}`,
    { spec },
    'application/merge-patch+json',
  );
  if (res.status === 404) {
    await client.createIfAbsent(LEASES, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: 'kube-node-lease' },
      spec,
    });
  }
}

/**
 * Binds to `node` the unscheduled Pending Pods that match `selector` (devenv has no scheduler);
 * a Pod another node took first (409) is left to it.
 */
export async function bindUnscheduledPods(
  client: KubeClient,
  node: string,
  selector: string | undefined,
  log: (message: string) => void,
): Promise<void> {
  const labels = selector
    ? `&labelSelector=${encodeURIComponent(selector)}`
    : '';
  const unscheduled = await client.must(
    'GET',
    `/api/v1/pods?fieldSelector=${encodeURIComponent(
      'spec.nodeName=',
    )}${labels}`,
  );
  for (const pod of unscheduled.body.items as any[]) {
    if (pod.metadata.deletionTimestamp || pod.status?.phase !== 'Pending')
      continue;
    const res = await client.request(
      'POST',
      `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/binding`,
      {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: pod.metadata.name, uid: pod.metadata.uid },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      },
    );
    if (res.status >= 300 && res.status !== 409)
      log(`node-agent: binding ${pod.metadata.name}: ${res.status}`);
  }
}
