import {
  createBackendModule,
  type ServiceFactory,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  startTestBackend,
} from '@backstage/backend-test-utils';
import type {
  ClusterProber,
  ProbeResult,
} from '@infrared-clusters/infrared-kube';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import request from 'supertest';
import type {
  GitopsChange,
  GitopsPublisher,
  GitopsPublishOptions,
} from '../../gitops';
import { gitopsPublisherExtensionPoint } from '../../gitops';
import { infraredKubeServiceFactory } from '../../kube';
import { SerialScheduler } from '../../clusters/__testUtils__/serialScheduler';
import { CLUSTERS_RECONCILE_TASK_ID, infraredPlugin } from '../../plugin';
import { MemoryPlacementApi } from '../../placement/__testUtils__/memoryPlacementApi';
import { MemoryProvisioningApi } from '../../provisioning/__testUtils__/memoryProvisioningApi';
import { OpenApiCheck } from './openApiCheck';

/** A publisher that records the changes it was given and merges each at once. */
export class RecordingPublisher implements GitopsPublisher {
  readonly changes: GitopsChange[] = [];
  /** The options of each publish, in the order of `changes`. */
  readonly options: Array<GitopsPublishOptions | undefined> = [];
  failWith?: Error;

  async publish(change: GitopsChange, options?: GitopsPublishOptions) {
    if (this.failWith) throw this.failWith;
    this.changes.push(change);
    this.options.push(options);
    const n = this.changes.length;
    return {
      url: `https://git.example/pull/${n}`,
      commit: `c${n}`,
      state: 'merged' as const,
      merged: true,
      pullRequest: { number: n, url: `https://git.example/pull/${n}` },
    };
  }

  async describe() {
    return {
      type: 'fake',
      repoUrl: 'https://git.example/gitops.git',
      defaultBranch: 'main',
    };
  }
}

export class FakeProber implements ClusterProber {
  result: ProbeResult = { ok: true, kubernetesVersion: 'v1.37.2', nodes: 2 };
  async probe() {
    return this.result;
  }
}

export interface Harness {
  api: InMemoryManagementApi;
  /** Organizations, Products, Releases and Argo CD's kinds, in memory. */
  placement: MemoryPlacementApi;
  /** OpenTofu Jobs, Pods and logs, in memory. */
  provisioning: MemoryProvisioningApi;
  publisher: RecordingPublisher;
  prober: FakeProber;
  scheduler: SerialScheduler;
  /** Sends a request as `as` (a signed-in user by default) and checks the answer against openapi.yaml. */
  send(
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    options?: {
      body?: unknown;
      raw?: string;
      contentType?: string;
      as?: 'user' | 'none' | 'service';
    },
  ): Promise<request.Response>;
  responses: request.Response[];
  openapi: OpenApiCheck;
}

/** The infrared plugin in a test backend, on an in-memory management cluster. */
export async function startHarness(
  options: {
    features?: ServiceFactory[];
    managed?: boolean;
    openapi?: OpenApiCheck;
  } = {},
): Promise<Harness> {
  const api = new InMemoryManagementApi();
  const placement = new MemoryPlacementApi();
  const provisioning = new MemoryProvisioningApi(api);
  const publisher = new RecordingPublisher();
  const prober = new FakeProber();
  const scheduler = new SerialScheduler();
  const publisherModule = createBackendModule({
    pluginId: 'infrared',
    moduleId: 'test-publisher',
    register(env) {
      env.registerInit({
        deps: { gitops: gitopsPublisherExtensionPoint },
        async init({ gitops }) {
          gitops.setPublisher(() => publisher);
        },
      });
    },
  });
  const { server } = await startTestBackend({
    features: [
      infraredPlugin,
      publisherModule,
      scheduler.factory(),
      infraredKubeServiceFactory(
        options.managed === false
          ? { unavailable: 'no management cluster is configured (test)' }
          : {
              management: {
                api,
                prober,
                probeCounter: api.counter,
                server: 'memory',
                placement,
                provisioning,
              },
            },
      ),
      ...(options.features ?? []),
    ],
  });
  if (options.managed !== false) {
    // The first pass, as on start: it makes the management cluster.
    await scheduler.triggerTask(CLUSTERS_RECONCILE_TASK_ID);
  }
  const openapi = options.openapi ?? new OpenApiCheck();
  const responses: request.Response[] = [];
  const send: Harness['send'] = async (method, path, opts = {}) => {
    let req = request(server)[method](`/api/infrared${path}`);
    const as = opts.as ?? 'user';
    if (as === 'user')
      req = req.set('Authorization', mockCredentials.user.header());
    if (as === 'service')
      req = req.set('Authorization', mockCredentials.service.header());
    if (opts.raw !== undefined) {
      req = req
        .set('Content-Type', opts.contentType ?? 'application/json')
        .send(opts.raw);
    } else if (opts.body !== undefined) {
      req = req.send(opts.body as object);
    }
    const res = await req;
    responses.push(res);
    openapi.check(method, path, res.status, res.body);
    return res;
  };
  return {
    api,
    placement,
    provisioning,
    publisher,
    prober,
    scheduler,
    send,
    responses,
    openapi,
  };
}
