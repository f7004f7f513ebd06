/*
 * bench/provisioning: clusters built with OpenTofu on a local control plane (an ephemeral devenv
 * one, or --state), with devenv's node agent and a real tofu (built from Go modules on first use).
 * The provisioning executor is driven as the backend drives it, with a pass every 250 ms instead of
 * the backend's interval (the backend runs a pass at each API write, then every
 * infrared.provisioning.interval, 15 s by default). Prints:
 *   - Cluster created -> plan Succeeded (median of --runs; anchor <= 20 s);
 *   - action apply -> apply Succeeded and the kubeconfig output registered (median; the anchor
 *     "Apply to Registered <= 60 s" needs the demo template, not built yet);
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
import type { ClusterResource } from '@internal/plugin-infrared-common';
import {
  KubeClient,
  KubeProvisioningApi,
  managementApi,
  RequestCounter,
} from '@internal/plugin-infrared-node';
import { ProvisioningReconciler } from '../../plugins/infrared-backend/src/provisioning/reconciler';
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
  await applyTofuRbac(management);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-node-'));
  const agent = await startNodeAgent({
    cluster: management,
    nodeName: `${prefix}-node`,
    selector: 'app.kubernetes.io/name=infrared-tofu',
    dataDir,
  });
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
