import { mockServices } from '@backstage/backend-test-utils';
import {
  clusterForRequest,
  kubeconfigSecret,
} from '@infrared-clusters/plugin-infrared-common';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import { FakeProber } from '../api/__testUtils__/harness';
import { BatchingPublisher } from '../gitops';
import { useFakeGithub } from '../gitops/__testUtils__/githubHarness';
import { kubeconfigText } from './__testUtils__/fixtures';
import { ClusterReconciler } from './reconciler';

jest.setTimeout(60_000);

const registered = (api: InMemoryManagementApi, name: string) =>
  api.clusterStore
    .get(name)
    ?.status?.conditions?.find(c => c.type === 'Registered');

/**
 * Clusters made outside the API (kubectl, GitOps applying Cluster objects) reach the gitops repo
 * in a few batched pull requests, as the API path's do (issue 25), through the real GitHub
 * publisher and the fake GitHub validated against GitHub's OpenAPI description.
 */
describe('a pass over many Clusters made with kubectl', () => {
  const gh = useFakeGithub();

  async function setup(count: number) {
    const api = new InMemoryManagementApi();
    const reconciler = new ClusterReconciler({
      api,
      prober: new FakeProber(),
      // as createClusters wires it
      publisher: new BatchingPublisher(gh.publisher(), {
        maxFilesPerChange: 300,
      }),
      managementCluster: 'infrared-mgmt',
      logger: mockServices.logger.mock(),
    });
    const names = Array.from(
      { length: count },
      (_, i) => `edge-${String(i).padStart(3, '0')}`,
    );
    for (const name of names) {
      await api.secrets.create(
        kubeconfigSecret({ clusterName: name, kubeconfig: kubeconfigText() }),
      );
      await api.clusters.create(
        clusterForRequest({ name, kubeconfig: kubeconfigText() }),
      );
    }
    return { api, reconciler, names };
  }

  it('registers 200 of them with at most 3 pull requests in one pass', async () => {
    const { api, reconciler, names } = await setup(200);
    await reconciler.reconcileAll();
    const pulls = gh.server.repo.pulls.length;
    expect(pulls).toBeGreaterThan(0);
    expect(pulls).toBeLessThanOrEqual(3);
    for (const name of names) {
      expect(registered(api, name)).toMatchObject({ status: 'True' });
    }
  });

  it('keeps the Clusters of an open batch waiting on it, with its URL, and opens no other pull request', async () => {
    gh.server.repo.requiredApprovals = 1;
    const { api, reconciler, names } = await setup(40);
    await reconciler.reconcileAll();
    const opened = gh.server.repo.pulls.length;
    expect(opened).toBeLessThanOrEqual(3);
    for (let i = 0; i < 2; i++) await reconciler.reconcileAll();
    expect(gh.server.repo.pulls).toHaveLength(opened);
    for (const name of names) {
      const condition = registered(api, name);
      expect(condition).toMatchObject({ reason: 'PullRequestOpen' });
      expect(condition?.message).toMatch(/\/pull\/\d+/);
    }
  });
});
