import { mockServices } from '@backstage/backend-test-utils';
import { eventually, getTestControlPlane, uniqueName } from '@internal/devenv';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { startTofuJobWatch } from './jobWatch';

jest.setTimeout(120_000);

/** TOFU_JOB_SELECTOR's labels. */
const TOFU_LABELS = {
  'app.kubernetes.io/name': 'infrared-tofu',
  'app.kubernetes.io/managed-by': 'infrared',
};

/**
 * The OpenTofu Jobs' watch (infrared.provisioning.watch) on the real API server: nothing before its
 * first LISTs, then a change of a Job or a Pod of the Jobs' labels in its namespace is named. (The
 * watch itself is not label-filtered, only its LIST: an unlabelled Pod of the namespace is named
 * too, which costs the Jobs' namespace an extra pass at most.)
 */
describe('the OpenTofu Job watch (real control plane)', () => {
  const cp = getTestControlPlane();
  const admin = cp.client('management');
  const client = KubeClient.fromKubeconfig(cp.cluster('management').kubeconfig);
  const namespace = uniqueName('jobwatch');
  const seen: string[] = [];
  let watch: ReturnType<typeof startTofuJobWatch>;

  beforeAll(async () => {
    await admin.must('POST', '/api/v1/namespaces', {
      metadata: { name: namespace },
    });
    watch = startTofuJobWatch({
      client,
      namespace,
      logger: mockServices.logger.mock(),
      onChange: what => seen.push(what),
    });
    await watch.synced;
  });

  afterAll(async () => {
    await watch?.stop();
    await admin.request('DELETE', `/api/v1/namespaces/${namespace}`);
  });

  const pod = (name: string, labels: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'tofu', image: 'opentofu' }] },
  });

  it('names a change of a Pod and of a Job of the OpenTofu labels', async () => {
    expect(seen).toEqual([]);
    await admin.must(
      'POST',
      `/api/v1/namespaces/${namespace}/pods`,
      pod('tofu', TOFU_LABELS),
    );
    await eventually(async () => seen.includes('pods'), 30_000, 50);
    await admin.must('POST', `/apis/batch/v1/namespaces/${namespace}/jobs`, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'tofu',
        namespace,
        labels: TOFU_LABELS,
      },
      spec: {
        suspend: true,
        template: {
          metadata: { labels: { app: 'suspended' } },
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'tofu', image: 'opentofu' }],
          },
        },
      },
    });
    await eventually(async () => seen.includes('jobs'), 30_000, 50);
  });
});
