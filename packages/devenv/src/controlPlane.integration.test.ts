import path from 'node:path';
import {
  createServiceAccountKubeconfig,
  eventually,
  installCrds,
} from './helpers';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { getTestControlPlane, uniqueName } from './testing';

jest.setTimeout(120_000);

const FIXTURES = path.resolve(__dirname, '../../../deploy/test-fixtures');
const WIDGETS = '/apis/testing.infrared.darkshift.io/v1alpha1';

describe('the local control plane', () => {
  const cp = getTestControlPlane();
  const mgmt = cp.client('management');
  const ns = uniqueName('devenv-it');

  beforeAll(async () => {
    await mgmt.must('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await installCrds(cp.cluster('management'), FIXTURES);
  });

  it('serves a CRD with a status subresource and validates it', async () => {
    const base = `${WIDGETS}/namespaces/${ns}/widgets`;
    const created = await mgmt.must('POST', base, {
      apiVersion: 'testing.infrared.darkshift.io/v1alpha1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { size: 3, maxSize: 5 },
      status: { phase: 'ignored-on-create' },
    });
    expect(created.body.status).toBeUndefined();

    const withStatus = {
      ...created.body,
      status: { phase: 'Ready', observedGeneration: 1 },
    };
    const put = await mgmt.must('PUT', `${base}/w1/status`, withStatus);
    expect(put.body.status.phase).toBe('Ready');
    expect(put.body.metadata.generation).toBe(1);

    const schemaErr = await mgmt.request('POST', base, {
      metadata: { name: 'w2' },
      apiVersion: 'testing.infrared.darkshift.io/v1alpha1',
      kind: 'Widget',
      spec: { size: 0, color: 'pink' },
    });
    expect(schemaErr.status).toBe(422);
    expect(JSON.stringify(schemaErr.body)).toMatch(/spec.size/);

    const celErr = await mgmt.request('POST', base, {
      metadata: { name: 'w3' },
      apiVersion: 'testing.infrared.darkshift.io/v1alpha1',
      kind: 'Widget',
      spec: { size: 9, maxSize: 5 },
    });
    expect(celErr.status).toBe(422);
    expect(celErr.body.message).toMatch(/size must not exceed maxSize/);

    const stale = await mgmt.request('PUT', `${base}/w1`, {
      ...created.body,
      spec: { size: 4 },
    });
    expect(stale.status).toBe(409);
  });

  it('gives a ServiceAccount bound to a narrow ClusterRole 403 outside it', async () => {
    const role = uniqueName('devenv-ns-reader');
    await mgmt.must('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: role },
      rules: [
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list'] },
      ],
    });
    const kubeconfig = await createServiceAccountKubeconfig(
      cp.cluster('management'),
      { namespace: ns, name: 'reader', clusterRole: role },
    );
    const sa = KubeClient.fromKubeconfig(kubeconfig);
    expect(sa.access.token).toBeTruthy();
    expect((await sa.request('GET', '/api/v1/namespaces')).status).toBe(200);
    const denied = await sa.request('GET', `/api/v1/namespaces/${ns}/secrets`);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain(`system:serviceaccount:${ns}:reader`);
    expect(
      (
        await sa.request('POST', '/api/v1/namespaces', {
          metadata: { name: `${ns}-x` },
        })
      ).status,
    ).toBe(403);
  });

  it('keeps management and workload clusters apart', async () => {
    const wl = cp.client('workload-a');
    expect(cp.cluster('workload-a').server).not.toBe(
      cp.cluster('management').server,
    );
    const name = uniqueName('only-in-mgmt');
    await mgmt.must('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name },
    });
    expect(
      (await mgmt.request('GET', `/api/v1/namespaces/${ns}/configmaps/${name}`))
        .status,
    ).toBe(200);
    expect(
      (await wl.request('GET', `/api/v1/namespaces/${ns}/configmaps/${name}`))
        .status,
    ).toBe(404);
    expect((await wl.request('GET', `${WIDGETS}/widgets`)).status).toBe(404);
    // each cluster has its own CA: the management admin certificate is not accepted by the workload cluster
    const cross = KubeClient.fromAccess({
      ...mgmt.access,
      server: cp.cluster('workload-a').server,
      caData: cp.cluster('workload-a').caData,
    });
    expect((await cross.request('GET', '/api/v1/namespaces')).status).toBe(401);
  });

  // garbage collection and Jobs need kube-controller-manager (envtest's KUBEBUILDER_ASSETS has none)
  (cp.state.controllerManager ? describe : describe.skip)(
    'with kube-controller-manager',
    () => {
      it('garbage-collects a Secret whose owner ConfigMap is deleted', async () => {
        const owner = await mgmt.must(
          'POST',
          `/api/v1/namespaces/${ns}/configmaps`,
          { metadata: { name: 'owner' }, data: { a: 'b' } },
        );
        await mgmt.must('POST', `/api/v1/namespaces/${ns}/secrets`, {
          metadata: {
            name: 'dependent',
            ownerReferences: [
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                name: 'owner',
                uid: owner.body.metadata.uid,
              },
            ],
          },
          stringData: { k: 'v' },
        });
        await mgmt.must('DELETE', `/api/v1/namespaces/${ns}/configmaps/owner`);
        const gone = await eventually(
          async () =>
            (
              await mgmt.request(
                'GET',
                `/api/v1/namespaces/${ns}/secrets/dependent`,
              )
            ).status === 404,
        );
        expect(gone).toBe(true);
      });

      it("lets the job controller create a Job's Pod", async () => {
        await mgmt.must('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
          metadata: { name: 'hello' },
          spec: {
            backoffLimit: 0,
            template: {
              spec: {
                restartPolicy: 'Never',
                containers: [
                  { name: 'c', image: 'busybox', command: ['true'] },
                ],
              },
            },
          },
        });
        const pods = await eventually(async () => {
          const res = await mgmt.must(
            'GET',
            `/api/v1/namespaces/${ns}/pods?labelSelector=batch.kubernetes.io/job-name%3Dhello`,
          );
          return res.body.items.length ? res.body.items : undefined;
        });
        expect(pods[0].metadata.ownerReferences[0]).toMatchObject({
          kind: 'Job',
          name: 'hello',
        });
        expect(pods[0].status.phase).toBe('Pending');
      });
    },
  );
});
