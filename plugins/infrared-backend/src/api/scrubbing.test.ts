import { mockServices } from '@backstage/backend-test-utils';
import { findCondition } from '@infrared-clusters/plugin-infrared-common';
import { toKubeApiError } from '@infrared-clusters/infrared-kube';
import { CLUSTERS_RECONCILE_TASK_ID } from '../plugin';
import { Git } from '../gitops/local/git';
import { startHarness } from './__testUtils__/harness';
import type { OpenApiCheck } from './__testUtils__/openApiCheck';

const TOKEN = 'planted-Zm9vYmFyLXRva2VuLTEyMzQ1Njc4OTA';
const GH = `ghp_${'Q1w2E3r4T5'.repeat(4)}`;

/**
 * Errors of Kubernetes, git and GitHub that quote a token, planted where the plugin catches them:
 * the Cluster's status, the plugin's log and the API's answers carry none of it.
 */
describe('errors are scrubbed before a status, a log or a response', () => {
  const logger = mockServices.logger.mock();
  const logged = () =>
    JSON.stringify(
      (['error', 'warn', 'info', 'debug'] as const).map(
        level => logger[level].mock.calls,
      ),
    );

  it('a failed publish quoting a remote URL with a token and a bearer header', async () => {
    const h = await startHarness({ features: [logger.factory] });
    h.publisher.failWith = new Error(
      `git push failed (128): fatal: unable to access 'https://x-access-token:${GH}@127.0.0.1/org/gitops.git/': 403; Authorization: Bearer ${TOKEN}`,
    );
    const created = await h.send('post', '/v1/clusters', {
      body: { name: 'edge', inCluster: true },
    });
    expect(created.status).toBe(201);
    await h.scheduler.triggerTask(CLUSTERS_RECONCILE_TASK_ID);

    const view = await h.send('get', '/v1/clusters/edge');
    const registered = findCondition(view.body, 'Registered');
    // the failure is reported, with what failed, but without the credentials
    expect(registered?.status).toBe('False');
    expect(registered?.message).toMatch(
      /unable to access 'https:\/\/\[redacted\]@127\.0\.0\.1/,
    );
    const stored = JSON.stringify([...h.api.clusterStore.values()]);
    for (const secret of [GH, TOKEN]) {
      expect(stored).not.toContain(secret);
      expect(logged()).not.toContain(secret);
      expect(h.responses.map(r => r.text).join()).not.toContain(secret);
    }
    expect(logged()).toMatch(
      /registering cluster edge in the gitops repo failed/,
    );
  });

  it('an unexpected error echoing a token reaches the answer scrubbed', async () => {
    // a 500, which openapi.yaml rightly does not list: the answer is not checked against it
    const openapi = { check: () => undefined } as unknown as OpenApiCheck;
    const h = await startHarness({ features: [logger.factory], openapi });
    h.api.failNext.set(
      'clusters.list',
      new Error(`LIST clusters: the server echoed token: ${TOKEN}`),
    );
    const res = await h.send('get', '/v1/clusters');
    expect(res.status).toBe(500);
    expect(res.body.error.message).toMatch(/LIST clusters: the server echoed/);
    expect(res.text).not.toContain(TOKEN);
  });

  it("KubeApiError keeps the API server's reason, not the token it echoed", () => {
    const error = toKubeApiError(
      {
        code: 422,
        body: {
          reason: 'Invalid',
          message: `Secret "cluster-edge-kubeconfig" is invalid: data.kubeconfig: users: [{user: {token: ${TOKEN}}}]`,
        },
      },
      'CREATE secret infrared/cluster-edge-kubeconfig',
    );
    expect(error.reason).toBe('Invalid');
    expect(error.message).toMatch(/is invalid: data\.kubeconfig/);
    expect(error.message).not.toContain(TOKEN);
  });

  it('a real git error on a remote URL with a token in it', async () => {
    const git = new Git('/nonexistent/gitops.git', {
      name: 'infrared',
      email: 'infrared@example.com',
    });
    const error = await git
      .run([
        'ls-remote',
        `https://x-access-token:${GH}@127.0.0.1:1/org/gitops.git`,
      ])
      .catch(e => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/git ls-remote failed/);
    expect(`${error.message} ${error.stderr} ${error.stack}`).not.toContain(GH);
  });
});
