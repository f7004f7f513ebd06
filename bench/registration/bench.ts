/*
 * The registration benchmark (run through run.js, which loads TypeScript with Backstage's node
 * transform). Two figures, on a real local control plane from packages/devenv:
 *
 * 1. POST /v1/clusters -> Registered=True latency with the local gitops repository, over N runs
 *    (target: p50 <= 2 s). The REST router, ClusterService, ClusterReconciler and LocalGitPublisher
 *    are the plugin's own; only Backstage auth is stubbed (it allows).
 * 2. One reconcile pass over 200 workload clusters: the first (which registers all of them) and a
 *    steady one (everything already right), with the API requests each sent and its time.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  createNodes,
  KubeClient as AdminClient,
  serverAlias,
  startControlPlane,
  type ServerAlias,
} from '../../packages/devenv/src';
import {
  clusterForRequest,
  kubeconfigSecret,
} from '../../plugins/infrared-common/src';
import {
  KubeClient,
  KubeClusterProber,
  kubeConfigFromText,
  managementApi,
  RequestCounter,
} from '../../plugins/infrared-kube/src';
import { createRouter } from '../../plugins/infrared-backend/src/api/router';
import {
  ClusterReconciler,
  DEFAULT_MAX_FILES_PER_CHANGE,
  ClusterService,
} from '../../plugins/infrared-backend/src/clusters';
import { prepareManagementCluster } from '../../plugins/infrared-backend/src/clusters/__testUtils__/managementCluster';
import {
  BatchingPublisher,
  LocalGitPublisher,
} from '../../plugins/infrared-backend/src/gitops';
import express from 'express';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const TARGET_P50_MS = 2000;

export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

export const quiet: LoggerService = {
  info() {},
  warn(message: string) {
    process.stderr.write(`warn: ${message}\n`);
  },
  error(message: string) {
    process.stderr.write(`error: ${message}\n`);
  },
  debug() {},
  child() {
    return quiet;
  },
};

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (ms: number) => `${Math.round(ms)} ms`;
export const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

export async function main(): Promise<void> {
  const runs = arg('runs', 10);
  const scale = arg('clusters', 200);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-bench-'));
  const started = Date.now();
  const cp = await startControlPlane({
    clusters: ['management', 'workload-a'],
    ownerPid: process.pid,
  });
  const aliases: ServerAlias[] = [];
  try {
    console.log(
      `control plane up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const management = cp.cluster('management');
    const workload = cp.cluster('workload-a');
    const backendKubeconfig = await prepareManagementCluster(management);
    await createNodes(workload, 3, 'bench-node');

    const counter = new RequestCounter();
    const probeCounter = new RequestCounter();
    const client = new KubeClient(kubeConfigFromText(backendKubeconfig), {
      counter,
    });
    const api = managementApi(client);
    const prober = new KubeClusterProber(client, { counter: probeCounter });
    // as createClusters wires it: what one pass registers goes out as batched changes
    const local = new LocalGitPublisher({ path: path.join(tmp, 'gitops.git') });
    const publisher = new BatchingPublisher(local, {
      maxFilesPerChange: DEFAULT_MAX_FILES_PER_CHANGE,
    });
    const reconciler = new ClusterReconciler({
      api,
      prober,
      publisher,
      managementCluster: 'infrared-mgmt',
      logger: quiet,
    });
    const service = new ClusterService({
      api,
      managementCluster: 'infrared-mgmt',
      logger: quiet,
      onChange: name => {
        reconciler.reconcileOne(name).catch(e => quiet.warn(e.message));
      },
    });
    const router = await createRouter({
      httpAuth: {
        credentials: async () => ({
          $$type: '@backstage/BackstageCredentials',
          principal: { type: 'user', userEntityRef: 'user:default/bench' },
        }),
      } as any,
      permissions: {
        authorize: async (requests: unknown[]) =>
          requests.map(() => ({ result: AuthorizeResult.ALLOW })),
      } as any,
      logger: quiet,
      clusters: service,
    });
    const app = express();
    app.use('/api/infrared', router);
    app.use((err: any, _req: any, res: any, _next: any) => {
      res
        .status(err.statusCode ?? 500)
        .json({ error: { message: err.message } });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise(r => server.once('listening', r));
    const base = `http://127.0.0.1:${
      (server.address() as AddressInfo).port
    }/api/infrared`;

    // The first pass makes and registers the management cluster (as on start).
    await reconciler.reconcileAll();

    // 1. POST -> Registered=True
    const admin = AdminClient.fromKubeconfig(management.kubeconfig);
    const latencies: number[] = [];
    for (let i = 0; i < runs; i++) {
      const name = `bench-latency-${i}`;
      // each run at an address of its own: one registration per API server (issue 23.1)
      const alias = await serverAlias(cp, 'workload-a');
      aliases.push(alias);
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/clusters`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name,
          kubeconfig: alias.kubeconfig,
          flavor: 'k3s',
          provider: 'local',
        }),
      });
      if (res.status !== 201) {
        throw new Error(`POST answered ${res.status}: ${await res.text()}`);
      }
      for (;;) {
        const got = await admin.must(
          'GET',
          `/apis/infrared.darkshift.io/v1alpha1/clusters/${name}`,
        );
        const registered = got.body.status?.conditions?.find(
          (c: any) => c.type === 'Registered',
        );
        if (registered?.status === 'True') break;
        if (
          registered?.status === 'False' &&
          registered.reason !== 'WaitingForConnection'
        ) {
          throw new Error(
            `${name}: ${registered.reason}: ${registered.message}`,
          );
        }
        if (performance.now() - t0 > 60_000)
          throw new Error(`${name}: not registered in 60 s`);
        await sleep(10);
      }
      latencies.push(performance.now() - t0);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    console.log(
      `\nPOST /v1/clusters -> Registered=True (local gitops repo, ${runs} runs):`,
    );
    console.log(
      `  p50 ${fmt(p50)}  p90 ${fmt(percentile(sorted, 90))}  min ${fmt(
        sorted[0],
      )}  max ${fmt(sorted[sorted.length - 1])}`,
    );
    console.log(
      `  target p50 <= ${TARGET_P50_MS} ms: ${
        p50 <= TARGET_P50_MS ? 'met' : 'MISSED'
      } (p50 / target = ${(p50 / TARGET_P50_MS).toFixed(3)})`,
    );

    // 2. One pass at `scale` clusters
    const kubeconfig = workload.kubeconfig;
    const t1 = Date.now();
    const names = Array.from({ length: scale }, (_, i) => `bench-scale-${i}`);
    for (let i = 0; i < names.length; i += 20) {
      await Promise.all(
        names.slice(i, i + 20).map(async name => {
          await admin.must(
            'POST',
            '/api/v1/namespaces/infrared/secrets',
            kubeconfigSecret({ clusterName: name, kubeconfig }),
          );
          await admin.must(
            'POST',
            '/apis/infrared.darkshift.io/v1alpha1/clusters',
            clusterForRequest({ name, kubeconfig }),
          );
        }),
      );
    }
    const total = names.length + runs + 1;
    console.log(
      `\nreconcile pass at ${total} clusters (${scale} made with kubectl-style creates in ${(
        (Date.now() - t1) /
        1000
      ).toFixed(1)} s, + ${runs} from above + the management cluster):`,
    );
    for (const label of [
      'first (registers the new ones)',
      'steady (all right)',
      'steady again',
    ]) {
      counter.reset();
      probeCounter.reset();
      const merged = async () =>
        (await local.listPullRequests()).filter(p => p.merged).length;
      const changesBefore = await merged();
      const pass = await reconciler.reconcileAll();
      const changes = (await merged()) - changesBefore;
      console.log(
        `  ${label}: ${(pass.durationMs / 1000).toFixed(2)} s; management API ${
          pass.requests
        } requests ${JSON.stringify(
          pass.requestsByVerb,
        )}; workload API (probes) ${probeCounter.total} requests; ${
          pass.secretWrites
        } Secret writes, ${pass.statusWrites} status writes, ${
          pass.published
        } published in ${changes} gitops changes, ${pass.failed} failed`,
      );
    }
    server.close();
  } finally {
    await Promise.all(aliases.map(a => a.close()));
    await cp.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
