import {
  mockCredentials,
  startTestBackend,
} from '@backstage/backend-test-utils';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import YAML from 'yaml';
import { scaffolderModuleInfrared } from './module';

const TEMPLATE = path.resolve(
  __dirname,
  '../../../examples/templates/new-cluster/template.yaml',
);
const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: edge
  cluster: {server: 'https://203.0.113.10:6443', certificate-authority-data: Q0EtUEVN}
users:
- name: edge
  user: {token: dry-run-token-42}
contexts:
- name: edge
  context: {cluster: edge, user: edge}
current-context: edge
`;

/**
 * The template as the real scaffolder backend runs it in a dry run (the template editor's): its
 * parameters, if conditions, step inputs and output, with this module's actions in dry-run mode.
 */
describe('the new-cluster template in a scaffolder dry run', () => {
  it('registers and waits (dry run), keeping the kubeconfig out of the log and output', async () => {
    const backend = await startTestBackend({
      features: [
        scaffolderPlugin,
        scaffolderModuleInfrared,
        catalogServiceMock.factory(),
      ],
    });
    const res = await request(backend.server)
      .post('/api/scaffolder/v2/dry-run')
      .set('Authorization', mockCredentials.user.header())
      .send({
        template: YAML.parse(fs.readFileSync(TEMPLATE, 'utf8')),
        values: {
          name: 'edge-demo',
          region: 'local-1',
          how: 'register',
          kubeconfig: '(kept as a task secret)',
        },
        secrets: { kubeconfig: KUBECONFIG },
        directoryContents: [],
      });
    expect(res.status).toBe(200);
    const log = JSON.stringify(res.body.log);
    expect(log).toContain('dry run: would register Cluster edge-demo');
    expect(log).toContain('dry run: would wait for Cluster edge-demo');
    expect(log).not.toContain('would create Cluster');
    // the task page shows a step whose if: is false with a grey (-) and no time: its name says it
    // belongs to the path not taken, so it reads as skipped, not as failed (issue 23.4)
    const skipped = new Set<string>(
      res.body.log
        .filter((l: any) => l.body?.status === 'skipped')
        .map((l: any) => l.body.stepId),
    );
    expect([...skipped].sort()).toEqual(['build', 'planned']);
    for (const step of res.body.steps) {
      expect(step.name).toMatch(
        skipped.has(step.id) ? /^If building: / : /^If registering: /,
      );
    }
    expect(JSON.stringify(res.body)).not.toContain('dry-run-token-42');
    // the cluster's panel has a URL of its own (issue 23.4)
    expect(res.body.output.links).toEqual([
      { title: 'Cluster edge-demo', url: '/clusters/edge-demo' },
      { title: 'Clusters', url: '/clusters' },
    ]);
    expect(res.body.output.text).toEqual([
      expect.objectContaining({
        title: 'Cluster edge-demo',
        content: 'Registered. Argo CD server: ``. Gitops file: ``',
      }),
    ]);
    await backend.stop();
  }, 60_000);
});
