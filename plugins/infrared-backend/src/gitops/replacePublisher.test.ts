import {
  createBackendModule,
  type BackendFeature,
} from '@backstage/backend-plugin-api';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import {
  clusterForRequest,
  kubeconfigSecret,
} from '@infrared-clusters/plugin-infrared-common';
import {
  gitopsPublisherExtensionPoint,
  type GitopsChange,
  type GitopsPublisher,
} from '@infrared-clusters/plugin-infrared-node';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { kubeconfigText } from '../clusters/__testUtils__/fixtures';
import { SerialScheduler } from '../clusters/__testUtils__/serialScheduler';
import { infraredKubeServiceFactory } from '../kube';
import { CLUSTERS_RECONCILE_TASK_ID, infraredPlugin } from '../plugin';

/** What another backend module might offer: a publisher to some other git host. Records and merges. */
class RecordingPublisher implements GitopsPublisher {
  readonly changes: GitopsChange[] = [];

  async publish(change: GitopsChange) {
    this.changes.push(change);
    const url = `https://git.example/pull/${this.changes.length}`;
    return {
      url,
      commit: `c${this.changes.length}`,
      state: 'merged' as const,
      merged: true,
      pullRequest: { number: this.changes.length, url },
    };
  }

  async describe() {
    return {
      type: 'recording',
      repoUrl: 'https://git.example/gitops.git',
      defaultBranch: 'main',
    };
  }
}

/** A backend module that replaces the publisher through the exported extension point. */
function publisherModule(moduleId: string, publisher: GitopsPublisher) {
  return createBackendModule({
    pluginId: 'infrared',
    moduleId,
    register(env) {
      env.registerInit({
        deps: { gitops: gitopsPublisherExtensionPoint },
        async init({ gitops }) {
          gitops.setPublisher(({ config }) => {
            // The factory gets the plugin's config, to read its own settings from.
            expect(config.getString('infrared.gitops.type')).toBe('local');
            return publisher;
          });
        },
      });
    },
  });
}

describe('gitopsPublisherExtensionPoint', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-replace-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The plugin on an in-memory management cluster, with the local git publisher configured. */
  async function start(...modules: BackendFeature[]) {
    const api = new InMemoryManagementApi();
    const scheduler = new SerialScheduler();
    const prober = {
      probe: async () => ({
        ok: true as const,
        kubernetesVersion: 'v1.37.2',
        nodes: 1,
      }),
    };
    const localRepo = path.join(dir, 'gitops.git');
    await startTestBackend({
      features: [
        infraredPlugin,
        ...modules,
        scheduler.factory(),
        mockServices.rootConfig.factory({
          data: { infrared: { gitops: { type: 'local', path: localRepo } } },
        }),
        infraredKubeServiceFactory({
          management: {
            api,
            prober,
            probeCounter: api.counter,
            server: 'memory',
          },
        }),
      ],
    });
    return { api, scheduler, localRepo };
  }

  it('lets another backend module replace the publisher: a registration goes through it, not the local git one', async () => {
    const replacement = new RecordingPublisher();
    const { api, scheduler, localRepo } = await start(
      publisherModule('recording-publisher', replacement),
    );
    await api.secrets.create(
      kubeconfigSecret({ clusterName: 'edge', kubeconfig: kubeconfigText() }),
    );
    await api.clusters.create(
      clusterForRequest({ name: 'edge', kubeconfig: kubeconfigText() }),
    );

    await scheduler.triggerTask(CLUSTERS_RECONCILE_TASK_ID);

    expect(replacement.changes.map(c => c.key)).toEqual(['cluster-edge']);
    const edge = api.clusterStore.get('edge')!;
    expect(
      edge.status?.conditions?.find(c => c.type === 'Registered')?.status,
    ).toBe('True');
    expect(edge.status?.pullRequest?.url).toBe('https://git.example/pull/1');
    // The configured local publisher was never built: no repository at its path.
    expect(fs.existsSync(localRepo)).toBe(false);
  });

  it('refuses a second module that sets the publisher', async () => {
    await expect(
      start(
        publisherModule('first', new RecordingPublisher()),
        publisherModule('second', new RecordingPublisher()),
      ),
    ).rejects.toThrow(/the gitops publisher was already set/);
  });
});
