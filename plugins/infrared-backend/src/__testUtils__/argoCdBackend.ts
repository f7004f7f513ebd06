import { mockCredentials } from '@backstage/backend-test-utils';
import {
  bootstrapArgoCd,
  ensureArgoCd,
  eventually,
  KubeClient as AdminClient,
  startArgoCd,
  startControlPlane,
  type ArgoCd,
  type ControlPlane,
  removeTestDir,
} from '@internal/devenv';
import { KubePlacementApi } from '@infrared-clusters/infrared-kube';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { prepareManagementCluster } from '../clusters/__testUtils__/managementCluster';
import { SerialScheduler } from '../clusters/__testUtils__/serialScheduler';
import { LocalGitPublisher } from '../gitops';
import { startBackendOnControlPlane } from './backendOnControlPlane';

/** The first run on a machine builds Argo CD from Go modules (about 19 min cold, once: cached). */
export const ARGOCD_BUILD_MS = 40 * 60_000;
/** The default `infrared.managementCluster.name`. */
export const MGMT = 'infrared-mgmt';
const APPS = '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications';

export interface ArgoCdBackendOptions {
  /** The control plane's clusters. Default management and workload-a. */
  clusters?: string[];
  /** Argo CD's application-controller resync period, seconds. Default 10. */
  resyncSeconds?: number;
  /**
   * More `infrared` config, merged over the gitops block this fixture sets; a function gets the
   * control plane first (e.g. for a kubeconfig of its management cluster).
   */
  infrared?:
    | Record<string, unknown>
    | ((cp: ControlPlane) => Record<string, unknown>);
  /** More backend features (e.g. a catalog or audit service factory). */
  features?: any[];
}

/**
 * A real backend (the infrared plugin, a SerialScheduler) and a real Argo CD (devenv's startArgoCd)
 * on a control plane of the test's own. Argo CD clones the local gitops repository the backend
 * writes through devenv's loopback `git daemon` (`infrared.gitops.argocdRepoUrl`).
 */
export interface ArgoCdBackend {
  cp: ControlPlane;
  argo: ArgoCd;
  scheduler: SerialScheduler;
  /** The bare gitops repository the backend publishes to, and its loopback git URL. */
  gitopsRepo: string;
  gitopsUrl: string;
  /** The Express app of the backend. */
  server: any;
  /** Build time of Argo CD when this run built it, seconds. */
  builtSeconds?: number;
  /** An admin client of a control plane cluster. */
  admin(cluster: string): AdminClient;
  /** A request to the infrared API as the mock user (a platform admin under the allow-all policy). */
  send(
    method: 'get' | 'post' | 'put' | 'delete',
    url: string,
    body?: object,
  ): request.Test;
  /** GET of argocd-server's API with the fixture account's token. */
  argoGet(url: string): Promise<{ status: number; body: any }>;
  /** Argo CD's view of one cluster (`GET /api/v1/clusters`), undefined when it does not list it. */
  argoCluster(name: string): Promise<any>;
  /** The Application as Argo CD's API shows it once `ok`; on timeout, fails with Argo CD's own status. */
  argoApplicationUntil(
    name: string,
    ok: (app: any) => boolean,
    timeoutMs: number,
  ): Promise<any>;
  /** Every Application in namespace argocd with Argo CD's own status: what a failure shows. */
  applicationsSummary(): Promise<string>;
  /**
   * devenv's bootstrap (bootstrapArgoCd): the AppProjects and the root Application `registry-<mgmt>`
   * over the management cluster's components.
   */
  createRootApplication(): Promise<void>;
  stop(): Promise<void>;
}

export async function startArgoCdBackend(
  options: ArgoCdBackendOptions = {},
): Promise<ArgoCdBackend> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-argocd-'));
  const gitopsRepo = path.join(tmp, 'gitops.git');
  const scheduler = new SerialScheduler();
  const built = ensureArgoCd();
  const cp = await startControlPlane({
    clusters: options.clusters ?? ['management', 'workload-a'],
    ownerPid: process.pid,
  });
  let argo: ArgoCd | undefined;
  try {
    const backendKubeconfig = await prepareManagementCluster(
      cp.cluster('management'),
    );
    // The repository exists before Argo CD's root Application reads it (an empty initial commit).
    await new LocalGitPublisher({ path: gitopsRepo }).listPullRequests();
    argo = await startArgoCd(cp, {
      gitRepo: gitopsRepo,
      ownerPid: process.pid,
      resyncSeconds: options.resyncSeconds ?? 10,
    });
    const gitopsUrl = argo.gitUrl!;
    if (!/^git:\/\/127\.0\.0\.1:\d+\/gitops\.git$/.test(gitopsUrl)) {
      throw new Error(`not a loopback git URL: ${gitopsUrl}`);
    }
    const { server } = await startBackendOnControlPlane({
      controlPlane: cp,
      identity: { kubeconfig: backendKubeconfig },
      scheduler,
      withClient: false,
      tmp,
      // Placement (the release gate, task infrared-release-gate) as the backend ServiceAccount.
      placement: client => new KubePlacementApi(client),
      gitops: { type: 'local', path: gitopsRepo, argocdRepoUrl: gitopsUrl },
      infrared:
        typeof options.infrared === 'function'
          ? options.infrared(cp)
          : options.infrared,
      features: options.features,
    });
    return world({
      cp,
      argo,
      scheduler,
      gitopsRepo,
      gitopsUrl,
      server,
      builtSeconds: built.builtSeconds,
      tmp,
    });
  } catch (e) {
    scheduler.stop();
    await argo?.stop();
    await cp.stop();
    removeTestDir(tmp);
    throw e;
  }
}

function world(parts: {
  cp: ControlPlane;
  argo: ArgoCd;
  scheduler: SerialScheduler;
  gitopsRepo: string;
  gitopsUrl: string;
  server: any;
  builtSeconds?: number;
  tmp: string;
}): ArgoCdBackend {
  const { cp, argo, scheduler, server, gitopsUrl, tmp } = parts;
  const admin = (cluster: string) =>
    AdminClient.fromKubeconfig(cp.cluster(cluster).kubeconfig);
  const argoGet = async (url: string) => {
    const res = await fetch(`${argo.url}${url}`, {
      headers: { Authorization: `Bearer ${argo.token}` },
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const applicationsSummary = async () => {
    const res = await admin('management').request('GET', APPS);
    return JSON.stringify(
      (res.body?.items ?? []).map((a: any) => ({
        name: a.metadata.name,
        sync: a.status?.sync,
        health: a.status?.health,
        conditions: a.status?.conditions,
        operation: a.status?.operationState?.message,
      })),
    );
  };
  return {
    ...parts,
    admin,
    argoGet,
    applicationsSummary,
    send(method, url, body) {
      const req = request(server)
        [method](`/api/infrared${url}`)
        .set('Authorization', mockCredentials.user.header());
      return body ? req.send(body) : req;
    },
    async argoCluster(name) {
      const res = await argoGet('/api/v1/clusters');
      if (res.status !== 200) {
        throw new Error(`GET /api/v1/clusters: ${res.status}`);
      }
      return (res.body.items ?? []).find((c: any) => c.name === name);
    },
    async argoApplicationUntil(name, ok, timeoutMs) {
      let last: any;
      return eventually(
        async () => {
          const res = await argoGet(`/api/v1/applications/${name}`);
          last = res.body;
          return res.status === 200 && ok(res.body) && res.body;
        },
        timeoutMs,
        1000,
      ).catch(async e => {
        throw new Error(
          `${e.message}: Application ${name}: ${JSON.stringify({
            error: last?.error ?? last?.message,
            sync: last?.status?.sync,
            health: last?.status?.health,
            conditions: last?.status?.conditions,
          })}; Argo CD's Applications: ${await applicationsSummary()}`,
        );
      });
    },
    async createRootApplication() {
      // devenv's Argo CD bootstrap (deploy/argocd, the README's recipe): the AppProjects platform,
      // infrared and products, and the root Application over the management cluster's components.
      await bootstrapArgoCd(cp, {
        repoUrl: gitopsUrl,
        managementCluster: MGMT,
      });
    },
    async stop() {
      scheduler.stop();
      await argo.stop();
      await cp.stop();
      removeTestDir(tmp);
    },
  };
}
