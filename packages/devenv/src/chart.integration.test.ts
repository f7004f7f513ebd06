/*
 * The Helm chart's render, applied to a real API server with server-side dry-run (strict field
 * validation): everything the chart can render is something Kubernetes accepts.
 */
import path from 'node:path';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { parseManifests, serverSideApply } from './apply';
import { renderChart } from './chart';
import { ensureHelm } from './helm';
import { ensureNamespace } from './helpers';
import { getTestControlPlane, uniqueName } from './testing';

jest.setTimeout(600_000); // a cold helm build takes about 3 minutes

const ROOT = path.resolve(__dirname, '../../..');
const named = (o: any) =>
  `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${
    o.metadata.name
  }`;

describe('the Helm chart applied with server-side dry-run', () => {
  const management = getTestControlPlane().cluster('management');
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  const leases = uniqueName('helm-leases');
  let helm: string;

  beforeAll(async () => {
    helm = ensureHelm().bin;
    // the chart's objects in infrared-tofu are dry-run along with that Namespace, which a dry run
    // does not make: it must exist, as infrared and argocd must
    for (const ns of ['infrared', 'argocd', 'infrared-tofu', leases])
      await ensureNamespace(management, ns);
  });
  afterAll(async () => {
    await admin.must('DELETE', `/api/v1/namespaces/${leases}`, undefined, [
      404,
    ]);
  });

  it('accepts every object of the default render, its CRDs included', async () => {
    const objects = parseManifests(
      renderChart(helm, ROOT, { includeCrds: true }),
    );
    const applied = await serverSideApply(management, objects, {
      dryRun: true,
    });
    expect(applied.map(a => a.object)).toEqual(objects.map(named));
    expect(
      objects.filter(o => o.kind === 'CustomResourceDefinition'),
    ).toHaveLength(4);
  });

  it('accepts the render with every value changed, and stores nothing', async () => {
    const account = uniqueName('helm-sa');
    const objects = parseManifests(
      renderChart(helm, ROOT, {
        set: {
          'namespaces.create': 'true',
          'serviceAccount.name': account,
          'registrar.targetNamespace': leases,
          'labels.team': 'platform',
        },
      }),
    );
    expect(objects.map(named)).toContain(`Role ${leases}/infrared-registrar`);
    const applied = await serverSideApply(management, objects, {
      dryRun: true,
    });
    expect(applied.map(a => a.object)).toEqual(objects.map(named));
    const stored = await admin.request(
      'GET',
      `/api/v1/namespaces/infrared/serviceaccounts/${account}`,
    );
    expect(stored.status).toBe(404);
    const leaseRole = await admin.request(
      'GET',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${leases}/roles/infrared-registrar`,
    );
    expect(leaseRole.status).toBe(404);
  });

  it('fails on an object the API server refuses, naming it', async () => {
    const objects: any[] = parseManifests(renderChart(helm, ROOT));
    const role = objects.find(o => o.kind === 'Role');
    const account = objects.find(o => o.kind === 'ServiceAccount');
    await expect(
      serverSideApply(management, [{ ...role, rulez: role.rules }], {
        dryRun: true,
      }),
    ).rejects.toThrow(
      /^Role infrared\/infrared-backend: the API server refused it \(\d{3}\): .*rulez: field not declared in schema/,
    );
    await expect(
      serverSideApply(
        management,
        [{ ...account, metadata: { ...account.metadata, name: 'Not_A_Name' } }],
        { dryRun: true },
      ),
    ).rejects.toThrow(
      /ServiceAccount infrared\/Not_A_Name: the API server refused it \(422\)/,
    );
    await expect(
      serverSideApply(
        management,
        [
          {
            apiVersion: 'example.com/v1',
            kind: 'Gadget',
            metadata: { name: 'g' },
          },
        ],
        { dryRun: true },
      ),
    ).rejects.toThrow(/GET \/apis\/example.com\/v1 -> 404/);
  });
});
