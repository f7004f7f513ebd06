/*
 * The chart's renders applied to the real API server with server-side dry-run (strict field
 * validation, admission, CEL compilation of the admission policies): Kubernetes accepts what it
 * renders, with its defaults, with an upstream user's values file and with every option on.
 */
import path from 'node:path';
import {
  ensureNamespace,
  getTestControlPlane,
  serverSideApply,
  uniqueName,
} from '@internal/devenv';
import { FIXTURES, helmBin, named, render } from './__testUtils__/chart';

jest.setTimeout(600_000); // a cold helm build takes about 3 minutes

const cp = getTestControlPlane();
const management = cp.cluster('management');
const admin = cp.client('management');

describe('the chart applied with server-side dry-run', () => {
  const release = uniqueName('acr-release');
  const target = uniqueName('acr-argocd');

  beforeAll(async () => {
    helmBin();
    // a dry run makes no namespace: the release's and the target must exist
    for (const ns of [release, target, 'argocd'])
      await ensureNamespace(management, ns);
  });
  afterAll(async () => {
    for (const ns of [release, target])
      await admin.must('DELETE', `/api/v1/namespaces/${ns}`, undefined, [404]);
  });

  const expectAcceptedByDryRun = async (objects: any[]) => {
    const applied = await serverSideApply(management, objects, {
      dryRun: true,
    });
    expect(applied.map(a => a.object)).toEqual(objects.map(named));
  };

  it('accepts the default render', async () => {
    const objects = render({ namespace: release });
    expect(objects.map(o => o.kind)).toContain('Deployment');
    await expectAcceptedByDryRun(objects);
  });

  it("accepts the render of an upstream user's values file, admission policies included, and stores nothing", async () => {
    const objects = render({
      release: 'upstream',
      namespace: release,
      files: [path.join(FIXTURES, 'upstream-values.yaml')],
    });
    expect(objects.map(o => o.kind)).toEqual(
      expect.arrayContaining([
        'Service',
        'ValidatingAdmissionPolicy',
        'ValidatingAdmissionPolicyBinding',
      ]),
    );
    await expectAcceptedByDryRun(objects);
    const stored = await admin.request(
      'GET',
      '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/upstream-argocd-cluster-registrar-managed-by',
    );
    expect(stored.status).toBe(404);
  });

  it('accepts every option changed: another target namespace, leader election, metrics, a 0.2.x provider', async () => {
    const objects = render({
      release: 'every',
      namespace: release,
      files: [path.join(FIXTURES, 'upstream-0.2-values.yaml')],
      set: {
        targetNamespace: target,
        'leaderElection.enabled': 'true',
        replicaCount: '3',
        'metrics.enabled': 'true',
        'metrics.service.enabled': 'true',
        'probes.enabled': 'false',
        dryRun: 'true',
        'commonLabels.team': 'platform',
      },
    });
    expect(objects.map(named)).toContain(
      `Role ${target}/every-argocd-cluster-registrar-write`,
    );
    await expectAcceptedByDryRun(objects);
  });
});
