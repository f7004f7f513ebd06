import { eventually, getTestControlPlane, uniqueName } from '@internal/devenv';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';
import { REGISTRAR_TASK_ID } from './task';

jest.setTimeout(120_000);

const P = 'argocd-cluster-registrar/';
const b64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * Issue 23.1, "A discovered child stays Pending for ever": GET /v1/clusters says what the
 * registrar knows of each child, from the real backend with the registrar on the shared control
 * plane (its own managed-by value and target namespace): its Argo CD Secret and server, the last
 * pass's outcome and when, a Registered condition from it, and for a child the pass skipped
 * without a Secret, why. Never a credential.
 */
describe('GET /v1/clusters: the registrar pass of each discovered child', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const admin = cp.client('management');
  const managedBy = uniqueName('api');
  const target = uniqueName('argocd');
  const ready = uniqueName('k3k');
  const readyCluster = uniqueName('child');
  const empty = uniqueName('k3k');
  const emptyCluster = uniqueName('empty');
  const created = [target, ready, empty];
  let backend: BackendOnControlPlane;

  const list = async () => {
    const res = await backend.send('get', '/v1/clusters');
    expect(res.status).toBe(200);
    return res.body.items as any[];
  };
  const createNamespace = (name: string, cluster?: string) =>
    admin.must('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        labels: cluster
          ? { [`${P}managed-by`]: managedBy, [`${P}cluster`]: cluster }
          : {},
      },
    });

  beforeAll(async () => {
    await createNamespace(target);
    await createNamespace(ready, readyCluster);
    await createNamespace(empty, emptyCluster);
    await admin.must('POST', `/api/v1/namespaces/${ready}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `k3k-${readyCluster}-kubeconfig`, namespace: ready },
      data: {
        'kubeconfig.yaml': b64(
          management.kubeconfig.replace(
            management.server,
            'https://192.0.2.79:6443',
          ),
        ),
      },
    });
    // the registrar reads namespaces and writes Argo CD Secrets: its own grants, not the backend's
    backend = await startBackendOnControlPlane({
      controlPlane: cp,
      identity: 'admin',
      infrared: {
        registrar: {
          enabled: true,
          managedBy,
          targetNamespace: target,
          interval: '1h',
          gitops: false,
        },
      },
    });
  });

  afterAll(async () => {
    await backend?.stop();
    await Promise.all(
      created.map(ns =>
        admin.request('DELETE', `/api/v1/namespaces/${ns}`).catch(() => {}),
      ),
    );
  });

  it("lists each child with its Argo CD Secret, the last pass's outcome, and why one was skipped", async () => {
    const started = new Date().toISOString();
    await backend.pass(REGISTRAR_TASK_ID);
    const items = await eventually(async () => {
      const all = await list();
      const child = all.find(c => c.name === readyCluster);
      return child?.discovered?.lastPass ? all : undefined;
    }, 30_000);
    const child = items.find(c => c.name === readyCluster);
    expect(child).toMatchObject({
      argoSecret: `cluster-${readyCluster}`,
      argoServer: 'https://192.0.2.79:6443',
      discovered: {
        sourceNamespace: ready,
        provider: 'k3k',
        state: 'active',
        registered: true,
        lastPass: {
          outcome: expect.stringMatching(/^(registered|unchanged)$/),
          at: expect.any(String),
          since: expect.any(String),
        },
      },
      conditions: [
        expect.objectContaining({
          type: 'Registered',
          status: 'True',
          reason: expect.stringMatching(/^(Registered|Unchanged)$/),
        }),
      ],
    });
    expect(child.discovered.lastPass.at >= started).toBe(true);

    const skipped = items.find(c => c.name === emptyCluster);
    expect(skipped).toMatchObject({
      discovered: {
        sourceNamespace: empty,
        registered: false,
        lastPass: {
          outcome: 'skipped',
          reason: 'no_kubeconfig',
          message: expect.stringContaining(
            `no kubeconfig Secret yet in namespace ${empty}`,
          ),
        },
      },
      conditions: [
        expect.objectContaining({
          type: 'Registered',
          status: 'False',
          reason: 'Skipped',
        }),
      ],
    });
    expect(skipped.argoSecret).toBeUndefined();
    // nothing of the child's kubeconfig in the answer
    const body = JSON.stringify(items);
    expect(body).not.toContain('BEGIN');
    expect(body).not.toMatch(/client-(certificate|key)-data|token:/);
  });
});
