/*
 * KubeRegistrarApi pages every LIST (issue 25): on the real API server, with a page of 2 objects,
 * each LIST of 5 comes back whole over several requests (`limit` and `continue`).
 */
import { getTestControlPlane, uniqueName } from '@internal/devenv';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { KubeRegistrarApi } from './api';

jest.setTimeout(120_000);

const management = getTestControlPlane().cluster('management');
const admin = KubeClient.fromKubeconfig(management.kubeconfig);
const run = uniqueName('paging');
const namespaces = Array.from({ length: 5 }, (_, i) => `${run}-${i}`);
/** Our own Secret type, so that the cross-namespace LISTs see only this run's Secrets. */
const type = `infrared.test/${run}`;
const secretNames = Array.from({ length: 5 }, (_, i) => `s-${i}`);

const sorted = (xs: string[]) => [...xs].sort();

function pagedApi() {
  return new KubeRegistrarApi(
    KubeClient.fromKubeconfig(management.kubeconfig),
    {
      pageSize: 2,
    },
  );
}

beforeAll(async () => {
  for (const name of namespaces) {
    await admin.must('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { paging: run } },
    });
  }
  for (const name of secretNames) {
    await admin.must('POST', `/api/v1/namespaces/${namespaces[0]}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name },
      type,
      stringData: { key: name },
    });
  }
});

afterAll(async () => {
  for (const name of namespaces) {
    await admin.request('DELETE', `/api/v1/namespaces/${name}`);
  }
});

describe('KubeRegistrarApi pages its LISTs', () => {
  it('lists namespaces over several pages, every one once', async () => {
    const api = pagedApi();
    const listed = await api.listNamespaces(`paging=${run}`);
    expect(sorted(listed.map(n => n.metadata.name))).toEqual(namespaces);
    expect(api.counter.byVerb().LIST).toBeGreaterThanOrEqual(3);
  });

  it('lists Secrets across namespaces, with data and as metadata, over several pages', async () => {
    const api = pagedApi();
    const full = await api.listSecrets(`type=${type}`);
    expect(sorted(full.map(s => s.metadata.name))).toEqual(secretNames);
    expect(full.map(s => s.data?.key).sort()).toEqual(
      sorted(secretNames.map(n => Buffer.from(n).toString('base64'))),
    );
    const lists = api.counter.byVerb().LIST;
    expect(lists).toBeGreaterThanOrEqual(3);

    const meta = await api.listSecretsMetadata(`type=${type}`);
    expect(sorted(meta.items.map(s => s.metadata.name))).toEqual(secretNames);
    expect(meta.items.filter(s => 'data' in s)).toEqual([]);
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    expect(api.counter.byVerb().LIST - lists).toBeGreaterThanOrEqual(3);
  });

  it("lists one namespace's Secrets, with data and as metadata, over several pages", async () => {
    const api = pagedApi();
    const inNamespace = await api.listSecretsIn(namespaces[0], `type=${type}`);
    expect(sorted(inNamespace.map(s => s.metadata.name))).toEqual(secretNames);
    const lists = api.counter.byVerb().LIST;
    expect(lists).toBeGreaterThanOrEqual(3);

    const meta = await api.listSecretMetadata(namespaces[0]);
    const ours = meta.filter(s => secretNames.includes(s.metadata.name));
    expect(sorted(ours.map(s => s.metadata.name))).toEqual(secretNames);
    expect(api.counter.byVerb().LIST - lists).toBeGreaterThanOrEqual(3);
  });
});
