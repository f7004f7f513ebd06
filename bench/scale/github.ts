/*
 * GitHub requests for N registrations at once (run through github.js; no control plane). The
 * publisher stack the backend builds for `infrared.gitops.type: github` (createGitopsPublisher with
 * its default retries and write pacing, under the BatchingPublisher at the default
 * maxFilesPerChange) against the fake GitHub, which checks every request against GitHub's OpenAPI
 * description and counts it. Three ways the registrations arrive (`--modes api,once,pass`, default all):
 *   api: through the API over time, `--per-second` (default 17, bench/scale's rate: 1,000 POSTs,
 *      50 at a time, in 50-70 s), one publish each when its pass reaches it; 10,000 take ~10 min;
 *      (`--window-before`: the BatchingPublisher's window before issue 25, 10 ms of quiet, <= 1 s);
 *   once: all at once, one publish each;
 *   pass: one reconcile pass over N Clusters created outside the API (kubectl apply), with the real
 *      ClusterReconciler on the in-memory management API (writes not paced, to keep it short).
 * Every address is loopback.
 */
import {
  clusterForRequest,
  kubeconfigSecret,
} from '../../plugins/infrared-common/src';
import { InMemoryManagementApi } from '../../plugins/infrared-kube/src/testUtils';
import { FakeProber } from '../../plugins/infrared-backend/src/api/__testUtils__/harness';
import { kubeconfigText } from '../../plugins/infrared-backend/src/clusters/__testUtils__/fixtures';
import { ClusterReconciler } from '../../plugins/infrared-backend/src/clusters/reconciler';
import { FakeGithubServer } from '../../plugins/infrared-backend/src/gitops/__testUtils__/fakeGithubServer';
import { TOKEN } from '../../plugins/infrared-backend/src/gitops/__testUtils__/githubHarness';
import {
  clusterNames,
  githubStack,
  landedPaths,
  registerAtOnce,
  registerOverTime,
} from '../../plugins/infrared-backend/src/gitops/__testUtils__/githubScale';
import { arg, quiet } from '../registration/bench';

/** Issue 17's 50 for 1,000, issue 25's 500 for 10,000. */
const goalFor = (scale: number) => Math.max(50, scale / 20);

/** Runs `fn` against a fresh fake GitHub and prints what it cost. */
async function measure(
  label: string,
  scale: number,
  fn: (server: FakeGithubServer) => Promise<void>,
): Promise<void> {
  const server = new FakeGithubServer(TOKEN);
  await server.start();
  try {
    const t0 = Date.now();
    await fn(server);
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    const { pulls } = server.repo;
    const landed = landedPaths(server.repo);
    const twice = [...landed.values()].filter(prs => prs.length > 1).length;
    if (server.violations.length) {
      throw new Error(`requests GitHub would refuse: ${server.violations}`);
    }
    const total = server.requests.length;
    const goal = goalFor(scale);
    const byOperation: Record<string, number> = {};
    for (const r of server.requests) {
      const op = r.operationId ?? r.path;
      byOperation[op] = (byOperation[op] ?? 0) + 1;
    }
    console.log(
      `GitHub requests for ${scale.toLocaleString(
        'en',
      )} registrations ${label}: ${total} (goal <= ${goal}: ${
        total <= goal ? 'met' : 'MISSED'
      })`,
    );
    console.log(
      `  ${pulls.length} pull requests (${
        pulls.filter(p => p.merged).length
      } merged), ${(total / Math.max(1, pulls.length)).toFixed(
        1,
      )} requests a pull request; ${
        landed.size
      } files landed, ${twice} of them twice; ${seconds} s`,
    );
    console.log(`  ${JSON.stringify(byOperation)}`);
  } finally {
    await server.stop();
  }
}

const mustAllPublish = (results: PromiseSettledResult<unknown>[]) => {
  const failed = results.filter(r => r.status === 'rejected');
  if (failed.length) throw new Error(`${failed.length} publishes failed`);
};

async function throughTheApi(
  server: FakeGithubServer,
  scale: number,
  perSecond: number,
) {
  const publisher = githubStack({
    server,
    logger: quiet,
    // main's window before issue 25: 10 ms of quiet, at most 1 s, whatever the arrivals
    window: process.argv.includes('--window-before')
      ? { burstQuietMs: 10, maxWaitMs: 1000 }
      : undefined,
  });
  mustAllPublish(
    await registerOverTime(publisher, clusterNames(scale), perSecond),
  );
}

async function atOnce(server: FakeGithubServer, scale: number) {
  const publisher = githubStack({ server, logger: quiet });
  mustAllPublish(await registerAtOnce(publisher, clusterNames(scale)));
}

async function inOnePass(server: FakeGithubServer, scale: number) {
  const api = new InMemoryManagementApi();
  for (const name of clusterNames(scale)) {
    await api.secrets.create(
      kubeconfigSecret({ clusterName: name, kubeconfig: kubeconfigText() }),
    );
    await api.clusters.create(
      clusterForRequest({ name, kubeconfig: kubeconfigText() }),
    );
  }
  const reconciler = new ClusterReconciler({
    api,
    prober: new FakeProber(),
    // unpaced: the pass's publishes wait for each other, and a second a write adds minutes here
    publisher: githubStack({
      server,
      logger: quiet,
      githubRetry: { paceWrites: false },
    }),
    managementCluster: 'infrared-mgmt',
    logger: quiet,
  });
  const pass = await reconciler.reconcileAll();
  if (pass.published !== scale) {
    throw new Error(`the pass published ${pass.published} of ${scale}`);
  }
}

export async function main(): Promise<void> {
  const scale = arg('clusters', 1000);
  const perSecond = arg('per-second', 17);
  const i = process.argv.indexOf('--modes');
  const modes = (i > 0 ? process.argv[i + 1] : 'api,once,pass').split(',');
  if (modes.includes('api')) {
    const label = process.argv.includes('--window-before')
      ? ' (the window before issue 25)'
      : '';
    await measure(
      `through the API, ${perSecond} a second${label}`,
      scale,
      server => throughTheApi(server, scale, perSecond),
    );
  }
  if (modes.includes('once')) {
    await measure('at once', scale, server => atOnce(server, scale));
  }
  if (modes.includes('pass')) {
    await measure('in one reconcile pass', scale, server =>
      inOnePass(server, scale),
    );
  }
}
