/*
 * One watch request through client-node's Watch (watchOnce), on the devenv control plane: events
 * as metadata only, the ends the registrar's watches tell apart (410 Gone, 403, the caller's
 * abort, the server's timeout), and no connection left keeping the process alive.
 */
import {
  createServiceAccountKubeconfig,
  ensureNamespace,
  eventually,
  getTestControlPlane,
  uniqueName,
} from '@internal/devenv';
import { KubeClient, kubeConfigFromText } from './client';
import { watchOnce, type KubeWatchEvent } from './watch';

jest.setTimeout(60_000);

const management = getTestControlPlane().cluster('management');
const kubeConfig = kubeConfigFromText(management.kubeconfig);
const admin = new KubeClient(kubeConfig);
const METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const namespace = uniqueName('watch');

beforeAll(() => ensureNamespace(management, namespace));

afterAll(async () => {
  await admin.request('DELETE', `/api/v1/namespaces/${namespace}`);
});

const secretsPath = () => `/api/v1/namespaces/${namespace}/secrets`;

describe('watchOnce', () => {
  it('hands each event over as metadata only (the Accept header), and ends as "ended" when aborted', async () => {
    const listed = await admin.must('GET', secretsPath());
    const events: KubeWatchEvent[] = [];
    const stop = new AbortController();
    const watched = watchOnce(
      kubeConfig,
      secretsPath(),
      {
        query: { resourceVersion: listed.body.metadata.resourceVersion },
        accept: METADATA,
        signal: stop.signal,
        idleMs: 30_000,
      },
      e => events.push(e),
    );
    await admin.must('POST', secretsPath(), {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'watched' },
      stringData: { token: 'not in any event' },
    });
    await eventually(async () => events.length > 0, 20_000, 50);
    stop.abort();
    await expect(watched).resolves.toBe('ended');
    expect(events[0].type).toBe('ADDED');
    expect(events[0].object.kind).toBe('PartialObjectMetadata');
    expect(events[0].object.metadata.name).toBe('watched');
    expect(JSON.stringify(events)).not.toContain('not in any event');
    expect(events[0].object).not.toHaveProperty('data');
  });

  it('ends as "gone" from a resourceVersion the watch cache no longer holds', async () => {
    const end = await watchOnce(
      kubeConfig,
      secretsPath(),
      {
        query: { resourceVersion: '1' },
        signal: new AbortController().signal,
        idleMs: 30_000,
      },
      () => undefined,
    );
    expect(end).toBe('gone');
  });

  it('ends as "forbidden" for an identity that may not watch the resource', async () => {
    const viewer = await createServiceAccountKubeconfig(management, {
      namespace,
      name: 'viewer',
      clusterRole: 'view',
    });
    const end = await watchOnce(
      kubeConfigFromText(viewer),
      secretsPath(),
      { signal: new AbortController().signal, idleMs: 30_000 },
      () => undefined,
    );
    expect(end).toBe('forbidden');
  });

  it('ends as "ended" when the server closes the watch at its timeout', async () => {
    const end = await watchOnce(
      kubeConfig,
      secretsPath(),
      {
        query: { timeoutSeconds: 1 },
        signal: new AbortController().signal,
        idleMs: 30_000,
      },
      () => undefined,
    );
    expect(end).toBe('ended');
  });

  it('rejects a watch that hears nothing for idleMs', async () => {
    const listed = await admin.must('GET', secretsPath());
    await expect(
      watchOnce(
        kubeConfig,
        secretsPath(),
        {
          query: { resourceVersion: listed.body.metadata.resourceVersion },
          signal: new AbortController().signal,
          idleMs: 300,
        },
        () => undefined,
      ),
    ).rejects.toThrow('watch idle');
  });
});
