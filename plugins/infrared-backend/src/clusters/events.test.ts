import { createBackendPlugin } from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import {
  eventsServiceFactory,
  eventsServiceRef,
} from '@backstage/plugin-events-node';
import {
  INFRARED_CLUSTER_EVENTS_TOPIC,
  type InfraredClusterEventPayload,
} from '@infrared-clusters/plugin-infrared-node';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { infraredKubeServiceFactory } from '../kube';
import { infraredPlugin } from '../plugin';
import { kubeconfigText } from './__testUtils__/fixtures';
import { SerialScheduler } from './__testUtils__/serialScheduler';

/** Another plugin that hears the infrared plugin's cluster events through Backstage's events service. */
function listener(heard: InfraredClusterEventPayload[]) {
  return createBackendPlugin({
    pluginId: 'listener',
    register(env) {
      env.registerInit({
        deps: { events: eventsServiceRef },
        async init({ events }) {
          await events.subscribe({
            id: 'test',
            topics: [INFRARED_CLUSTER_EVENTS_TOPIC],
            onEvent: async ({ eventPayload }) => {
              heard.push(eventPayload as InfraredClusterEventPayload);
            },
          });
        },
      });
    },
  });
}

describe('cluster events', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-events-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('publishes registered and reconciled after POST, removed after DELETE, on infrared.clusters', async () => {
    const api = new InMemoryManagementApi();
    const heard: InfraredClusterEventPayload[] = [];
    const { server } = await startTestBackend({
      features: [
        infraredPlugin,
        listener(heard),
        eventsServiceFactory,
        new SerialScheduler().factory(),
        mockServices.rootConfig.factory({
          data: {
            events: { useEventBus: 'never' },
            infrared: {
              gitops: { type: 'local', path: path.join(dir, 'gitops.git') },
            },
          },
        }),
        infraredKubeServiceFactory({
          management: {
            api,
            prober: {
              probe: async () => ({
                ok: true as const,
                kubernetesVersion: 'v1.37.2',
                nodes: 1,
              }),
            },
            probeCounter: api.counter,
            server: 'memory',
          },
        }),
      ],
    });
    const auth = mockCredentials.user.header();

    const created = await request(server)
      .post('/api/infrared/v1/clusters')
      .set('Authorization', auth)
      .send({ name: 'edge', kubeconfig: kubeconfigText() });
    expect(created.status).toBe(201);
    await waitFor(() => heard.length >= 2);
    expect(heard).toEqual([
      { cluster: 'edge', change: 'registered' },
      { cluster: 'edge', change: 'reconciled' },
    ]);
    // the pass was done when `reconciled` was published: the status is there
    expect(api.clusterStore.get('edge')?.status?.gitopsPath).toBeTruthy();

    const removed = await request(server)
      .delete('/api/infrared/v1/clusters/edge')
      .set('Authorization', auth);
    expect(removed.status).toBe(200);
    expect(heard[2]).toEqual({ cluster: 'edge', change: 'removed' });

    const refused = await request(server)
      .post('/api/infrared/v1/clusters')
      .set('Authorization', auth)
      .send({ name: 'Not A Name', kubeconfig: kubeconfigText() });
    expect(refused.status).toBe(400);
    expect(heard).toHaveLength(3);
  });
});

/** Polls a condition (bounded: 200 times 10 ms). */
async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) {
    await new Promise(r => setTimeout(r, 10));
  }
}
