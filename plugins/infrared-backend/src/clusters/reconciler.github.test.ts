import { mockServices } from '@backstage/backend-test-utils';
import {
  clusterForRequest,
  kubeconfigSecret,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import { FakeProber } from '../api/__testUtils__/harness';
import type { RecordedRequest } from '../gitops/__testUtils__/fakeGithubServer';
import { useFakeGithub } from '../gitops/__testUtils__/githubHarness';
import { kubeconfigText } from './__testUtils__/fixtures';
import { ClusterReconciler } from './reconciler';

const registered = (api: InMemoryManagementApi, name: string) =>
  api.clusterStore
    .get(name)
    ?.status?.conditions?.find(c => c.type === 'Registered');

/** Requests that change the repository, pull requests included (GETs and merge attempts are not). */
const writes = (requests: RecordedRequest[]) =>
  requests.filter(r => r.method !== 'GET' && r.operationId !== 'pulls/merge');

/**
 * The reconciler with the real GitHub publisher against the fake GitHub (validated against
 * GitHub's OpenAPI description), on a repository that requires an approving review.
 */
describe('ClusterReconciler on a GitHub repository that blocks the merge', () => {
  const gh = useFakeGithub();

  async function setup(name: string) {
    gh.server.repo.requiredApprovals = 1;
    const api = new InMemoryManagementApi();
    const reconciler = new ClusterReconciler({
      api,
      prober: new FakeProber(),
      publisher: gh.publisher(),
      managementCluster: 'infrared-mgmt',
      logger: mockServices.logger.mock(),
    });
    await api.secrets.create(
      kubeconfigSecret({ clusterName: name, kubeconfig: kubeconfigText() }),
    );
    await api.clusters.create(
      clusterForRequest({ name, kubeconfig: kubeconfigText() }),
    );
    const pass = async () => {
      const from = gh.server.requests.length;
      await reconciler.reconcileAll();
      return gh.server.requests.slice(from);
    };
    return { api, pass };
  }

  it('waits on the open pull request without pushing, and is Registered once a human merges it', async () => {
    const { api, pass } = await setup('edge');
    await pass();
    const url = 'https://github.test/acme/gitops/pull/1';
    expect(registered(api, 'edge')).toMatchObject({
      status: 'False',
      reason: 'PullRequestOpen',
      message: expect.stringContaining(url),
    });
    for (let i = 0; i < 3; i++) {
      expect(writes(await pass())).toEqual([]);
      expect(registered(api, 'edge')?.reason).toBe('PullRequestOpen');
    }
    expect(gh.server.repo.pulls).toHaveLength(1);

    gh.server.repo.mergeByHuman(1);
    await pass();
    expect(registered(api, 'edge')).toMatchObject({
      status: 'True',
      reason: 'Registered',
    });
    expect(api.clusterStore.get('edge')!.status?.pullRequest).toMatchObject({
      number: 1,
      merged: true,
    });
    expect(writes(await pass())).toEqual([]);
  });

  it('does not reopen a pull request a human closed until the generation changes', async () => {
    const { api, pass } = await setup('edge');
    await pass();
    gh.server.repo.closeByHuman(1);
    await pass();
    expect(registered(api, 'edge')).toMatchObject({
      status: 'False',
      reason: 'PullRequestClosed',
    });
    for (let i = 0; i < 2; i++) {
      // nothing about the closed pull request (the repository's description is still fresh)
      expect((await pass()).map(r => r.operationId)).toEqual([]);
    }
    expect(gh.server.repo.pulls).toHaveLength(1);

    const cluster = api.clusterStore.get('edge')!;
    const changed: ClusterResource = {
      ...cluster,
      metadata: { ...cluster.metadata, generation: 2 },
      spec: { ...cluster.spec, region: 'eu-west-1' },
    };
    api.clusterStore.set('edge', changed);
    await pass();
    expect(gh.server.repo.pulls).toHaveLength(2);
    expect(registered(api, 'edge')).toMatchObject({
      reason: 'PullRequestOpen',
      observedGeneration: 2,
    });
  });
});
