/*
 * GitHub requests for N registrations at once (run through github.js; no control plane). The
 * publisher stack the backend builds for `infrared.gitops.type: github` (createGitopsPublisher with
 * its default retries and write pacing, under the BatchingPublisher at the default
 * maxFilesPerChange) against the fake GitHub, which checks every request against GitHub's OpenAPI
 * description and counts it. Two ways the registrations arrive:
 *   1. all at once, one publish each (as the API's registrations, each starting its own pass, do);
 *   2. one reconcile pass over N Clusters created outside the API (kubectl apply), with the real
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
} from '../../plugins/infrared-backend/src/gitops/__testUtils__/githubScale';
import { arg, quiet } from '../registration/bench';

const GOAL = 50;

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
    const byOperation: Record<string, number> = {};
    for (const r of server.requests) {
      const op = r.operationId ?? r.path;
      byOperation[op] = (byOperation[op] ?? 0) + 1;
    }
    console.log(
      `GitHub requests for ${scale.toLocaleString(
        'en',
      )} registrations ${label}: ${total} (goal <= ${GOAL}: ${
        total <= GOAL ? 'met' : 'MISSED'
      }; before: about 13,000)`,
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

export async function main(): Promise<void> {
  const scale = arg('clusters', 1000);

  await measure('at once', scale, async server => {
    const publisher = githubStack({ server, logger: quiet });
    const results = await registerAtOnce(publisher, clusterNames(scale));
    const failed = results.filter(r => r.status === 'rejected');
    if (failed.length) throw new Error(`${failed.length} publishes failed`);
  });

  await measure('in one reconcile pass', scale, async server => {
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
  });
}
