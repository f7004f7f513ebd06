/**
 * What the node agent reads and writes through the API server for one Pod, as a kubelet does: the
 * Secrets and ConfigMaps its container's environment names, its ServiceAccount token, and its
 * status (phase, conditions, the container's waiting, running or terminated state).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { KubeClient } from '@infrared-clusters/infrared-kube';
import {
  ContainerConfigError,
  type ContainerSpec as Container,
  type EnvSources,
  type PodLike,
} from './env';

type Data = Record<string, string>;

async function readData(
  client: KubeClient,
  kind: 'secret' | 'configmap',
  namespace: string,
  name: string,
): Promise<Data | undefined> {
  const res = await client.request(
    'GET',
    `/api/v1/namespaces/${namespace}/${kind}s/${name}`,
  );
  if (res.status === 404) return undefined;
  if (res.status !== 200)
    throw new Error(`GET ${kind} ${namespace}/${name}: ${res.status}`);
  const data: Data = { ...(res.body.data ?? {}) };
  if (kind === 'configmap') return data;
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => [
      k,
      Buffer.from(v, 'base64').toString('utf8'),
    ]),
  );
}

/**
 * Every Secret and ConfigMap the container's env and envFrom name, fetched first (the kubelet's
 * sources); a missing one reads as undefined.
 */
export async function envSources(
  client: KubeClient,
  namespace: string,
  container: Container,
): Promise<EnvSources> {
  const secrets = new Map<string, Data | undefined>();
  const configMaps = new Map<string, Data | undefined>();
  const names = [
    ...(container.envFrom ?? []).map(f => ({
      secret: f.secretRef?.name,
      configMap: f.configMapRef?.name,
    })),
    ...(container.env ?? []).map(e => ({
      secret: e.valueFrom?.secretKeyRef?.name,
      configMap: e.valueFrom?.configMapKeyRef?.name,
    })),
  ];
  for (const { secret, configMap } of names) {
    if (secret && !secrets.has(secret))
      secrets.set(secret, await readData(client, 'secret', namespace, secret));
    if (configMap && !configMaps.has(configMap))
      configMaps.set(
        configMap,
        await readData(client, 'configmap', namespace, configMap),
      );
  }
  return { secret: n => secrets.get(n), configMap: n => configMaps.get(n) };
}

/** The Pod's ServiceAccount token (TokenRequest, bound to the Pod), the CA and the namespace. */
export async function writeServiceAccountToken(
  client: KubeClient,
  pod: PodLike,
  dir: string,
  caPem: string,
): Promise<void> {
  const sa = pod.spec.serviceAccountName || 'default';
  const { namespace, name, uid } = pod.metadata;
  const res = await client.request(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${sa}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {
        expirationSeconds: 3600,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name, uid },
      },
    },
  );
  if (res.status === 404)
    throw new ContainerConfigError(`serviceaccount "${sa}" not found`);
  if (res.status !== 201 && res.status !== 200)
    throw new Error(
      `TokenRequest for ${namespace}/${sa}: ${res.status} ${
        res.body?.message ?? ''
      }`,
    );
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'token'), res.body.status.token, {
    mode: 0o644,
  });
  fs.writeFileSync(path.join(dir, 'ca.crt'), caPem);
  fs.writeFileSync(path.join(dir, 'namespace'), namespace);
}

/** Merge-patches the Pod's status, with the loopback host and Pod IPs every Pod here has. */
export async function patchPodStatus(
  client: KubeClient,
  pod: PodLike,
  status: Record<string, unknown>,
): Promise<void> {
  await client.must(
    'PATCH',
    `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`,
    {
      metadata: { uid: pod.metadata.uid },
      status: {
        hostIP: '127.0.0.1',
        hostIPs: [{ ip: '127.0.0.1' }],
        podIP: '127.0.0.1',
        podIPs: [{ ip: '127.0.0.1' }],
        ...status,
      },
    },
    [],
    'application/merge-patch+json',
  );
}

/** The Pod's conditions while its container runs (ready) or after it completed. */
export function podConditions(ready: boolean) {
  const now = new Date().toISOString();
  const s = ready ? 'True' : 'False';
  const completed = ready ? {} : { reason: 'PodCompleted' };
  return [
    { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
    { type: 'Initialized', status: 'True', lastTransitionTime: now },
    {
      type: 'ContainersReady',
      status: s,
      lastTransitionTime: now,
      ...completed,
    },
    { type: 'Ready', status: s, lastTransitionTime: now, ...completed },
  ];
}

/** A Pod whose container cannot start yet (a missing Secret, ServiceAccount, ...). */
export function waitingStatus(container: Container, e: ContainerConfigError) {
  return {
    phase: 'Pending',
    conditions: [{ type: 'PodScheduled', status: 'True' }],
    containerStatuses: [
      {
        name: container.name,
        image: container.image,
        imageID: '',
        ready: false,
        restartCount: 0,
        started: false,
        state: { waiting: { reason: e.reason, message: e.message } },
      },
    ],
  };
}

/** A Pod whose container runs as a local process started at `startedAt`. */
export function runningStatus(
  pod: PodLike,
  imageName: string,
  startedAt: string,
) {
  const container = pod.spec.containers[0];
  return {
    phase: 'Running',
    startTime: startedAt,
    conditions: podConditions(true),
    containerStatuses: [
      {
        name: container.name,
        image: container.image,
        imageID: `devenv://${imageName}`,
        containerID: `devenv://${pod.metadata.uid}`,
        ready: true,
        started: true,
        restartCount: 0,
        state: { running: { startedAt } },
      },
    ],
  };
}

/** A Pod whose container exited with `code` (message: the log's tail, for FallbackToLogsOnError). */
export function terminatedStatus(
  pod: PodLike,
  exit: { code: number; startedAt: string; finishedAt: string },
  message: string | undefined,
) {
  const container = pod.spec.containers[0];
  const { code } = exit;
  return {
    phase: code === 0 ? 'Succeeded' : 'Failed',
    conditions: podConditions(false),
    containerStatuses: [
      {
        name: container.name,
        image: container.image,
        imageID: '',
        containerID: `devenv://${pod.metadata.uid}`,
        ready: false,
        started: false,
        restartCount: 0,
        state: {
          terminated: {
            exitCode: code,
            reason: code === 0 ? 'Completed' : 'Error',
            startedAt: exit.startedAt,
            finishedAt: exit.finishedAt,
            containerID: `devenv://${pod.metadata.uid}`,
            ...(message ? { message } : {}),
          },
        },
      },
    ],
  };
}
