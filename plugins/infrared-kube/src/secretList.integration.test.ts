/*
 * A LIST of Secrets reads data only for the Secrets that changed (issue 25), on the devenv control
 * plane.
 */
import { getTestControlPlane, uniqueName } from '@internal/devenv';
import { KubeClient } from './client';
import { SecretListCache } from './secretList';

jest.setTimeout(120_000);

const management = getTestControlPlane().cluster('management');
const LABEL = 'infrared.test/listed';

describe('SecretListCache', () => {
  const client = KubeClient.fromKubeconfig(management.kubeconfig);
  const namespace = uniqueName('secret-list');
  const base = `/api/v1/namespaces/${namespace}/secrets`;
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const create = (name: string, labelled = true) =>
    client.must('POST', base, {
      metadata: { name, labels: labelled ? { [LABEL]: 'yes' } : {} },
      data: { value: b64(name) },
    });

  beforeAll(async () => {
    await client.must('POST', '/api/v1/namespaces', {
      metadata: { name: namespace },
    });
    for (let i = 0; i < 5; i++) await create(`s${i}`);
    await create('other', false);
  });
  afterAll(async () => {
    await client.request('DELETE', `/api/v1/namespaces/${namespace}`);
  });

  it('reads data once, then only for what changed, and follows deletions', async () => {
    const cache = new SecretListCache(client, namespace, `${LABEL}=yes`);
    const first = await cache.list();
    expect(first.map(s => s.metadata.name).sort()).toEqual([
      's0',
      's1',
      's2',
      's3',
      's4',
    ]);
    expect(first.find(s => s.metadata.name === 's2')?.data?.value).toBe(
      b64('s2'),
    );
    expect(cache.lastDataReads).toBe(5);

    const again = await cache.list();
    expect(cache.lastDataReads).toBe(0);
    expect(again.find(s => s.metadata.name === 's0')).toBe(
      first.find(s => s.metadata.name === 's0'),
    );

    await client.must(
      'PATCH',
      `${base}/s1`,
      { data: { value: b64('changed') } },
      [],
      'application/merge-patch+json',
    );
    await client.must('DELETE', `${base}/s3`);
    const changed = await cache.list();
    expect(cache.lastDataReads).toBe(1);
    expect(changed.map(s => s.metadata.name).sort()).toEqual([
      's0',
      's1',
      's2',
      's4',
    ]);
    expect(changed.find(s => s.metadata.name === 's1')?.data?.value).toBe(
      b64('changed'),
    );
  });

  it('reads many changed Secrets with one LIST of data instead of a GET each', async () => {
    const cache = new SecretListCache(client, namespace);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => create(`bulk-${i}`, false)),
    );
    const listed = await cache.list();
    expect(cache.lastDataReads).toBe(1);
    expect(
      listed.filter(s => s.metadata.name.startsWith('bulk-')),
    ).toHaveLength(30);
    expect(listed.every(s => s.data?.value)).toBe(true);
  });
});
