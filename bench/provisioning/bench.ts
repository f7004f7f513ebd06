/*
 * bench/provisioning: clusters built with OpenTofu on a local control plane (an ephemeral devenv
 * one, or --state), with devenv's node agent and a real tofu (built from Go modules on first use).
 * The provisioning executor is driven as the backend drives it, with a pass every 250 ms instead of
 * the backend's interval (the backend runs a pass at each API write, then every
 * infrared.provisioning.interval, 15 s by default). Prints:
 *   - Cluster created -> plan Succeeded (median of --runs; anchor <= 20 s);
 *   - action apply -> apply Succeeded and the kubeconfig output registered (median);
 *   - the demo template (examples/tofu/demo-cluster): action apply -> Registered (the new local API
 *     server Connected and registered through the local gitops repository by the clusters
 *     reconciler, run every 250 ms too; median of --demo-runs; anchor <= 60 s), then destroy;
 *   - the requests of a steady pass with --runs and with --clusters built Clusters (must be equal).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ensureNamespace,
  installCrds,
  openControlPlane,
  startControlPlane,
  startNodeAgent,
  KubeClient as AdminClient,
} from '@internal/devenv';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import {
  KubeClient,
  KubeClusterProber,
  KubeProvisioningApi,
  managementApi,
  RequestCounter,
} from '@infrared-clusters/infrared-kube';
import { ProvisioningReconciler } from '../../plugins/infrared-backend/src/provisioning/reconciler';
import { ClusterReconciler } from '../../plugins/infrared-backend/src/clusters';
import { LocalGitPublisher } from '../../plugins/infrared-backend/src/gitops';
import { applyTofuRbac } from '../../plugins/infrared-backend/src/provisioning/__testUtils__/tofuRbac';

const ROOT = path.resolve(__dirname, '../..');
const MODULE = path.join(
  ROOT,
  'plugins/infrared-backend/src/provisioning/__testUtils__/modules/ok',
);
const CLUSTERS = '/apis/infrared.darkshift.io/v1alpha1/clusters';
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function arg(name: string, fallback?: string) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

export async function main() {
  const runs = Number(arg('runs', '5'));
  const many = Number(arg('clusters', '20'));
  const demoRuns = Number(arg('demo-runs', '3'));
  const state = arg('state');
  const cp = state
    ? openControlPlane(state)
    : await startControlPlane({
        clusters: ['management'],
        ownerPid: process.pid,
      } as any);
  const management = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  const prefix = `bench-${Date.now().toString(36)}`;
  await installCrds(management, path.join(ROOT, 'deploy/crds'));
  await ensureNamespace(management, 'infrared');
  await ensureNamespace(management, 'argocd');
  await applyTofuRbac(management);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-node-'));
  const agent = await startNodeAgent({
    cluster: management,
    nodeName: `${prefix}-node`,
    selector: 'app.kubernetes.io/name=infrared-tofu',
    dataDir,
    log: process.env.BENCH_DEBUG ? m => console.error(m) : undefined,
  });
  const quiet = {
    info() {},
    warn() {},
    error() {},
    debug() {},
    child() {
      return quiet;
    },
  } as any;
  const counter = new RequestCounter();
  const client = KubeClient.fromKubeconfig(management.kubeconfig, { counter });
  const reconciler = new ProvisioningReconciler({
    api: managementApi(client),
    kube: new KubeProvisioningApi(client),
    logger: {
      info() {},
      warn: console.warn,
      error: console.error,
      debug() {},
      child() {
        return this;
      },
    } as any,
    context: { templates: [], kubeconfigOutput: 'kubeconfig' },
  });
  const created: string[] = [];
  const create = async (name: string) => {
    created.push(name);
    await admin.must('POST', CLUSTERS, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: {
        type: 'workload',
        template: { module: 'bench/ok' },
        provision: { source: MODULE, variables: { name } },
      },
    });
  };
  const phaseOf = async (name: string) =>
    ((await admin.must('GET', `${CLUSTERS}/${name}`)).body as ClusterResource)
      .status?.provision;
  const until = async (done: () => Promise<boolean>) => {
    const deadline = Date.now() + 300_000;
    for (;;) {
      await reconciler.reconcile();
      if (await done()) return;
      if (Date.now() > deadline) throw new Error('no result within 300 s');
      await sleep(250);
    }
  };
  try {
    const plans: number[] = [];
    const applies: number[] = [];
    for (let i = 0; i < runs; i++) {
      const name = `${prefix}-${i}`;
      let t0 = Date.now();
      await create(name);
      await until(async () => (await phaseOf(name))?.phase === 'Succeeded');
      plans.push(Date.now() - t0);
      t0 = Date.now();
      await admin.must(
        'PATCH',
        `${CLUSTERS}/${name}`,
        { spec: { provision: { action: 'apply' } } },
        [],
        'application/merge-patch+json',
      );
      await until(async () => {
        const c = (await admin.must('GET', `${CLUSTERS}/${name}`))
          .body as ClusterResource;
        return (
          c.status?.provision?.action === 'apply' &&
          c.status.provision.phase === 'Succeeded' &&
          !!c.spec.connection
        );
      });
      applies.push(Date.now() - t0);
    }
    const steady = async () => {
      await reconciler.reconcile();
      counter.reset();
      const t0 = Date.now();
      await reconciler.reconcile();
      return { requests: counter.byVerb(), ms: Date.now() - t0 };
    };
    const few = await steady();
    for (let i = runs; i < many; i++) await create(`${prefix}-${i}`);
    await until(async () => {
      for (const n of created)
        if ((await phaseOf(n))?.phase !== 'Succeeded') return false;
      return true;
    });
    const lots = await steady();
    console.log(
      `cluster created -> plan Succeeded: median ${(
        median(plans) / 1000
      ).toFixed(1)} s over ${runs} (${plans
        .map(p => (p / 1000).toFixed(1))
        .join(', ')}); anchor <= 20 s`,
    );
    console.log(
      `action apply -> apply Succeeded + kubeconfig registered: median ${(
        median(applies) / 1000
      ).toFixed(1)} s over ${runs} (${applies
        .map(p => (p / 1000).toFixed(1))
        .join(', ')})`,
    );
    console.log(
      `steady pass, ${runs} built clusters: ${JSON.stringify(
        few.requests,
      )} in ${few.ms} ms`,
    );
    console.log(
      `steady pass, ${many} built clusters: ${JSON.stringify(
        lots.requests,
      )} in ${lots.ms} ms`,
    );
    // the demo template: apply -> Registered, with the clusters reconciler and a local gitops repo
    const clusters = new ClusterReconciler({
      api: managementApi(KubeClient.fromKubeconfig(management.kubeconfig)),
      prober: new KubeClusterProber(
        KubeClient.fromKubeconfig(management.kubeconfig),
      ),
      publisher: new LocalGitPublisher({
        path: path.join(dataDir, 'gitops.git'),
      }),
      managementCluster: 'infrared-mgmt',
      logger: quiet,
    });
    await clusters.reconcileAll();
    const demoDir = path.join(dataDir, 'demo-clusters');
    const demo: number[] = [];
    for (let i = 0; i < demoRuns; i++) {
      const name = `${prefix}-demo-${i}`;
      created.push(name);
      await admin.must('POST', CLUSTERS, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name },
        spec: {
          type: 'workload',
          template: { module: 'local/demo-cluster' },
          provision: {
            source: path.join(ROOT, 'examples/tofu/demo-cluster'),
            variables: {
              name,
              devenv_cli: path.join(ROOT, 'packages/devenv/bin/devenv.js'),
              data_dir: demoDir,
            },
          },
        },
      });
      await until(async () => {
        const p = await phaseOf(name);
        if (p?.phase === 'Failed') throw new Error(`${name}: ${p.message}`);
        return p?.phase === 'Succeeded';
      });
      const t0 = Date.now();
      await admin.must(
        'PATCH',
        `${CLUSTERS}/${name}`,
        { spec: { provision: { action: 'apply' } } },
        [],
        'application/merge-patch+json',
      );
      await until(async () => {
        await clusters.reconcileOne(name);
        const c = (await admin.must('GET', `${CLUSTERS}/${name}`))
          .body as ClusterResource;
        return !!c.status?.conditions?.some(
          x => x.type === 'Registered' && x.status === 'True',
        );
      });
      demo.push(Date.now() - t0);
      await admin.must(
        'PATCH',
        `${CLUSTERS}/${name}`,
        { spec: { provision: { action: 'destroy' } } },
        [],
        'application/merge-patch+json',
      );
      await until(async () => {
        const p = await phaseOf(name);
        return p?.action === 'destroy' && p.phase === 'Succeeded';
      });
    }
    if (demoRuns) {
      console.log(
        `demo template: action apply -> Registered: median ${(
          median(demo) / 1000
        ).toFixed(1)} s over ${demoRuns} (${demo
          .map(p => (p / 1000).toFixed(1))
          .join(', ')}); anchor <= 60 s`,
      );
    }
    const total = (r: Record<string, number>) =>
      Object.values(r).reduce((a, b) => a + b, 0);
    if (total(few.requests) !== total(lots.requests))
      throw new Error('a steady pass sends more requests with more clusters');
  } finally {
    for (const n of created) await admin.request('DELETE', `${CLUSTERS}/${n}`);
    await agent.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!state) await cp.stop();
  }
}
