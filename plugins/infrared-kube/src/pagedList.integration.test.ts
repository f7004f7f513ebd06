/*
 * LISTs larger than one answer may be (issue 25: a pass failed with "the answer is too large" once
 * ~1,500 kubeconfig Secrets outgrew lightGet's 4 MB bound), on the devenv control plane.
 */
import { getTestControlPlane, uniqueName } from '@internal/devenv';
import { KubeClient } from './client';
import { RequestCounter } from './counter';
import { MAX_ANSWER_BYTES } from './lightGet';
import { listAllPages } from './pagedList';
import { KubeSecretApi } from './resources';
import { watchSecrets } from './informers';

jest.setTimeout(120_000);

const management = getTestControlPlane().cluster('management');
const LABEL = 'infrared.test/paged';

describe('a LIST larger than one answer', () => {
  const counter = new RequestCounter();
  const client = KubeClient.fromKubeconfig(management.kubeconfig, { counter });
  const namespace = uniqueName('paged');
  // six Secrets of 700 KiB each: ~5.6 MB of JSON, more than one answer may hold
  const bigData = Buffer.alloc(700 * 1024, 'x').toString('base64');
  const big = Array.from({ length: 6 }, (_, i) => `big-${i}`);
  const small = Array.from(
    { length: 40 },
    (_, i) => `small-${String(i).padStart(2, '0')}`,
  );

  beforeAll(async () => {
    await client.must('POST', '/api/v1/namespaces', {
      metadata: { name: namespace },
    });
    const secret = (name: string, data: string, labels = {}) =>
      client.must('POST', `/api/v1/namespaces/${namespace}/secrets`, {
        metadata: { name, labels },
        data: { value: data },
      });
    for (const name of big) await secret(name, bigData);
    await Promise.all(
      small.map(name =>
        secret(name, Buffer.from(name).toString('base64'), { [LABEL]: 'yes' }),
      ),
    );
  });
  afterAll(async () => {
    await client.request('DELETE', `/api/v1/namespaces/${namespace}`);
  });

  it('reads every Secret of a namespace whose whole LIST is over the read bound', async () => {
    const secrets = await new KubeSecretApi(client).list(namespace);
    const names = secrets.map(s => s.metadata.name);
    expect(names).toEqual(expect.arrayContaining(big));
    expect(names).toHaveLength(big.length + small.length);
    expect(6 * bigData.length).toBeGreaterThan(MAX_ANSWER_BYTES);
    const first = secrets.find(s => s.metadata.name === 'big-0');
    expect(first?.data?.value).toBe(bigData);
  });

  it('halves a page over the bound and neither skips nor repeats an object', async () => {
    const before = counter.byVerb().GET ?? 0;
    const list = await listAllPages<{ metadata: { name: string } }>(
      client,
      `/api/v1/namespaces/${namespace}/secrets`,
      { labelSelector: `${LABEL}=yes`, pageSize: 16, maxPageBytes: 4096 },
    );
    const names = list.items.map(s => s.metadata.name);
    expect(names).toEqual(small);
    expect(list.resourceVersion).toMatch(/^\d+$/);
    // more requests than 40/16 pages: some pages were asked again, smaller
    expect((counter.byVerb().GET ?? 0) - before).toBeGreaterThan(3);
  });

  it('reads metadata only when asked: no data in the answer', async () => {
    const list = await listAllPages<any>(
      client,
      `/api/v1/namespaces/${namespace}/secrets`,
      { metadataOnly: true, pageSize: 5 },
    );
    expect(list.items).toHaveLength(big.length + small.length);
    expect(list.items[0].kind).toBe('PartialObjectMetadata');
    expect(list.items.some((s: any) => s.data)).toBe(false);
  });

  it('fills a watched cache from a LIST over the bound', async () => {
    const cache = watchSecrets(client, namespace);
    await cache.start();
    try {
      await cache.synced;
      expect(cache.list()).toHaveLength(big.length + small.length);
    } finally {
      await cache.stop();
    }
  });
});
