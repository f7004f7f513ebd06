import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import {
  getTestControlPlane,
  KubeClient as AdminClient,
  startControlPlane,
  type ClusterInfo,
  type ControlPlane,
  removeTestDir,
} from '@internal/devenv';
import {
  KubeClient,
  KubeClusterProber,
  kubeConfigFromText,
  managementApi,
  RequestCounter,
  type ManagementApi,
  type PlacementKubeApi,
} from '@infrared-clusters/infrared-kube';
import type { JsonObject } from '@backstage/types';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { prepareManagementCluster } from '../clusters/__testUtils__/managementCluster';
import { SerialScheduler } from '../clusters/__testUtils__/serialScheduler';
import { infraredKubeServiceFactory } from '../kube';
import { installArgoCrds } from '../placement/__testUtils__/argocd';
import { CLUSTERS_RECONCILE_TASK_ID, infraredPlugin } from '../plugin';

type Config = Record<string, unknown>;

/** What varies between the backends the tests start on a devenv control plane. */
export interface BackendOnControlPlaneOptions {
  /**
   * The control plane: the shared one of the test run (`getTestControlPlane()`) by default; a list
   * of cluster names starts one of the test's own (`startControlPlane`), which `stop()` stops.
   */
  controlPlane?: ControlPlane | string[];
  /**
   * Who the backend is on the management cluster: `serviceAccount` (default), the
   * ServiceAccount infrared/infrared-backend with only deploy/rbac (prepareManagementCluster);
   * `admin`, the control plane's administrator (e.g. for the registrar's own grants); `{ kubeconfig }`, a
   * kubeconfig prepared already (e.g. shared by two replicas).
   */
  identity?: 'serviceAccount' | 'admin' | { kubeconfig: string };
  /**
   * Whether the kube service hands out the client itself (default true): the installation Lease,
   * the watches, the registrar, placement and provisioning on the API server. Without it, only the
   * clusters routes and reconciler run (and `placement` when given).
   */
  withClient?: boolean;
  /** Counts the requests of the backend's client. */
  counter?: RequestCounter;
  /** Counts the probes' requests (given to the prober too); a new one by default. */
  probeCounter?: RequestCounter;
  /** Wraps the management API the backend gets (e.g. to record its writes). */
  api?: (api: ManagementApi) => ManagementApi;
  /** A placement API given to the kube service (instead of one through the client). */
  placement?: (client: KubeClient) => PlacementKubeApi;
  /** Installs Argo CD's Application and AppProject kinds first (no Argo CD runs). */
  argoCrds?: boolean;
  /**
   * The local gitops repository (`infrared.gitops`, type local): `<tmp>/gitops.git` by default, a
   * path, or an object for the whole gitops block (e.g. with `argocdRepoUrl`).
   */
  gitops?: string | Config;
  /** More `infrared` config, merged over the gitops block. */
  infrared?: Config;
  /** More config at the top level (e.g. `backend.database`). */
  config?: Config;
  /**
   * The test scheduler (nothing runs on its own; `pass()` runs one): a SerialScheduler by default,
   * or false when the features bring a scheduler of their own.
   */
  scheduler?: SerialScheduler | false;
  /** More backend features (modules, service factories); given after the plugin's own. */
  features?: any[];
  /** Runs after the management cluster is prepared and before the backend starts. */
  beforeStart?(world: {
    cp: ControlPlane;
    admin: AdminClient;
    tmp: string;
  }): Promise<void>;
  /** One reconcile pass once the backend runs (the management Cluster and the gitops repository). */
  firstPass?: boolean;
  /** The prefix of the temporary directory. */
  tmpPrefix?: string;
  /** A temporary directory of the caller's (default a new one); `stop()` leaves a given one. */
  tmp?: string;
}

/** A real backend (the infrared plugin) on a real control plane, and what a test reaches it by. */
export interface BackendOnControlPlane {
  cp: ControlPlane;
  management: ClusterInfo;
  /** An administrator's client of the management cluster. */
  admin: AdminClient;
  /** The backend's kubeconfig and its client of the management cluster. */
  kubeconfig: string;
  client: KubeClient;
  /** Undefined when the features bring a scheduler of their own. */
  scheduler: SerialScheduler;
  /** The Express app of the backend. */
  server: any;
  backend: { stop(): Promise<void> };
  /** A temporary directory of this backend's own, removed by `stop()`. */
  tmp: string;
  /** The local gitops repository's path. */
  gitops: string;
  /** A request to the infrared API as `user` (default the mock user, a platform admin). */
  send(
    method: 'get' | 'post' | 'put' | 'delete' | 'patch',
    url: string,
    body?: unknown,
    user?: string,
  ): request.Test;
  /** One full run of a scheduled task (default the clusters reconcile pass). */
  pass(task?: string): Promise<void>;
  /** Stops the scheduler, the backend and a control plane of its own; removes `tmp`. */
  stop(): Promise<void>;
}

async function controlPlaneOf(options: BackendOnControlPlaneOptions) {
  const given = options.controlPlane;
  if (Array.isArray(given)) {
    const cp = await startControlPlane({
      clusters: given,
      ownerPid: process.pid,
    });
    return { cp, own: true };
  }
  return { cp: given ?? getTestControlPlane(), own: false };
}

async function kubeconfigOf(
  options: BackendOnControlPlaneOptions,
  management: ClusterInfo,
): Promise<string> {
  const identity = options.identity ?? 'serviceAccount';
  if (identity === 'admin') return management.kubeconfig;
  if (typeof identity === 'object') return identity.kubeconfig;
  return prepareManagementCluster(management);
}

function configOf(options: BackendOnControlPlaneOptions, tmp: string) {
  const gitopsBlock =
    typeof options.gitops === 'object'
      ? options.gitops
      : { type: 'local', path: options.gitops ?? path.join(tmp, 'gitops.git') };
  const gitops = String(gitopsBlock.path ?? '');
  const data = {
    ...options.config,
    infrared: { gitops: gitopsBlock, ...options.infrared },
  };
  return { gitops, data };
}

/** The backend's kube service: the management API, a prober and the client, on the given client. */
function kubeServiceOf(
  options: BackendOnControlPlaneOptions,
  client: KubeClient,
) {
  const probeCounter = options.probeCounter ?? new RequestCounter();
  const api = managementApi(client);
  return infraredKubeServiceFactory({
    management: {
      api: options.api ? options.api(api) : api,
      prober: new KubeClusterProber(
        client,
        options.probeCounter ? { counter: probeCounter } : {},
      ),
      probeCounter,
      server: client.server,
      ...(options.withClient === false ? {} : { client }),
      ...(options.placement ? { placement: options.placement(client) } : {}),
    },
  });
}

/**
 * Starts the infrared backend plugin (`startTestBackend`) on a devenv control plane: the management
 * cluster prepared as deploy/ describes it, the backend's kube service on a real client, a local
 * gitops repository and a SerialScheduler. What varies between tests are the options.
 */
export async function startBackendOnControlPlane(
  options: BackendOnControlPlaneOptions = {},
): Promise<BackendOnControlPlane> {
  const tmp =
    options.tmp ??
    fs.mkdtempSync(
      path.join(os.tmpdir(), options.tmpPrefix ?? 'infrared-backend-'),
    );
  const removeTmp = () => {
    if (!options.tmp) removeTestDir(tmp);
  };
  const { cp, own } = await controlPlaneOf(options);
  const scheduler =
    options.scheduler === false
      ? undefined
      : options.scheduler ?? new SerialScheduler();
  try {
    const management = cp.cluster('management');
    const admin = AdminClient.fromKubeconfig(management.kubeconfig);
    const kubeconfig = await kubeconfigOf(options, management);
    if (options.argoCrds) await installArgoCrds(management);
    await options.beforeStart?.({ cp, admin, tmp });
    const client = new KubeClient(
      kubeConfigFromText(kubeconfig),
      options.counter ? { counter: options.counter } : {},
    );
    const { gitops, data } = configOf(options, tmp);
    const backend = await startTestBackend({
      features: [
        infraredPlugin,
        ...(scheduler ? [scheduler.factory()] : []),
        kubeServiceOf(options, client),
        mockServices.rootConfig.factory({ data: data as JsonObject }),
        ...(options.features ?? []),
      ],
    });
    const pass = (task = CLUSTERS_RECONCILE_TASK_ID) => {
      if (!scheduler) throw new Error('no test scheduler: options.scheduler');
      return scheduler.triggerTask(task);
    };
    if (options.firstPass) await pass();
    return {
      cp,
      management,
      admin,
      kubeconfig,
      client,
      scheduler: scheduler!,
      server: backend.server,
      backend,
      tmp,
      gitops,
      send(method, url, body, user) {
        const req = request(backend.server)
          [method](`/api/infrared${url}`)
          .set('Authorization', mockCredentials.user.header(user));
        return body === undefined ? req : req.send(body as object);
      },
      pass,
      async stop() {
        scheduler?.stop();
        await backend.stop();
        if (own) await cp.stop();
        removeTmp();
      },
    };
  } catch (e) {
    scheduler?.stop();
    if (own) await cp.stop();
    removeTmp();
    throw e;
  }
}
