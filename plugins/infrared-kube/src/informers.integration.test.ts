/*
 * The watched caches (watchSecrets, watchClusters) on the devenv control plane: one counted LIST,
 * then changes arrive through the watch with no request for a read, and a watch the server refuses
 * is reported and retried while the cache keeps what it had.
 */
import {
  createServiceAccountKubeconfig,
  ensureNamespace,
  eventually,
  getTestControlPlane,
  uniqueName,
} from '@internal/devenv';
import { secretStrings } from '@infrared-clusters/plugin-infrared-common';
import { KubeClient, kubeConfigFromText } from './client';
import { RequestCounter } from './counter';
import { watchClusters, watchSecrets } from './informers';

jest.setTimeout(60_000);

const management = getTestControlPlane().cluster('management');
const admin = KubeClient.fromKubeconfig(management.kubeconfig);
const namespace = uniqueName('informer');
const secret = (name: string, value: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace },
  stringData: { value },
});
const secretsPath = `/api/v1/namespaces/${namespace}/secrets`;

beforeAll(() => ensureNamespace(management, namespace));

afterAll(async () => {
  await admin.request('DELETE', `/api/v1/namespaces/${namespace}`);
});

describe('watchSecrets', () => {
  it('lists once, then follows creates, updates and deletes through the watch; reads send nothing', async () => {
    await admin.must('POST', secretsPath, secret('before', 'one'));
    const counter = new RequestCounter();
    const cache = watchSecrets(
      new KubeClient(kubeConfigFromText(management.kubeconfig), { counter }),
      namespace,
    );
    await cache.start();
    await cache.synced;
    try {
      expect(counter.byVerb()).toEqual({ GET: 1 });
      expect(secretStrings(cache.get('before', namespace)!)).toEqual({
        value: 'one',
      });

      await admin.must('POST', secretsPath, secret('after', 'two'));
      const current = (await admin.must('GET', `${secretsPath}/before`)).body;
      current.data.value = Buffer.from('rotated').toString('base64');
      await admin.must('PUT', `${secretsPath}/before`, current);
      await admin.must('DELETE', `${secretsPath}/after`);
      await admin.must('POST', secretsPath, secret('last', 'three'));

      await eventually(async () => !!cache.get('last', namespace), 20_000, 50);
      expect(cache.get('after', namespace)).toBeUndefined();
      expect(secretStrings(cache.get('before', namespace)!).value).toBe(
        'rotated',
      );
      expect(
        cache
          .list(namespace)
          .map(s => s.metadata.name)
          .sort(),
      ).toEqual(['before', 'last']);
      // the LIST at start was the only counted request; one watch connection
      expect(counter.total).toBe(1);
      expect(cache.connects).toBe(1);
    } finally {
      await cache.stop();
    }
  });

  it('reports a refused watch and keeps the listed objects', async () => {
    const role = uniqueName('informer-list-only');
    await admin.createIfAbsent(
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: role },
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }],
      },
    );
    const listOnly = await createServiceAccountKubeconfig(management, {
      namespace,
      name: 'list-only',
      clusterRole: role,
    });
    const errors: unknown[] = [];
    const cache = watchSecrets(
      new KubeClient(kubeConfigFromText(listOnly)),
      namespace,
      { onError: e => errors.push(e) },
    );
    await cache.start();
    try {
      await cache.synced;
      await eventually(async () => errors.length > 0, 20_000, 50);
      expect(String((errors[0] as Error).message)).toMatch(/Forbidden/);
      expect(cache.get('before', namespace)).toBeDefined();
      // synced, but not following the server: a reader that must be current LISTs instead
      expect(cache.isSynced).toBe(true);
      expect(cache.isHealthy).toBe(false);
    } finally {
      await cache.stop();
      await admin.request(
        'DELETE',
        `/apis/rbac.authorization.k8s.io/v1/clusterroles/${role}`,
      );
    }
  });
});

describe('watchSecrets with a label selector', () => {
  it('holds only the labelled Secrets, follows a label put on and taken off, and is healthy while it watches', async () => {
    const labelled = (name: string) => ({
      ...secret(name, 'x'),
      metadata: { name, namespace, labels: { 'example.com/kept': 'yes' } },
    });
    await admin.must('POST', secretsPath, labelled('kept-1'));
    await admin.must('POST', secretsPath, secret('unlabelled-1', 'y'));
    const cache = watchSecrets(
      new KubeClient(kubeConfigFromText(management.kubeconfig)),
      namespace,
      { labelSelector: 'example.com/kept=yes' },
    );
    expect(cache.isHealthy).toBe(false);
    await cache.start();
    try {
      await cache.synced;
      expect(cache.isHealthy).toBe(true);
      expect(cache.list(namespace).map(s => s.metadata.name)).toEqual([
        'kept-1',
      ]);
      await admin.must('POST', secretsPath, labelled('kept-2'));
      await admin.must(
        'PATCH',
        `${secretsPath}/kept-1`,
        { metadata: { labels: { 'example.com/kept': null } } },
        [],
        'application/merge-patch+json',
      );
      await eventually(
        async () =>
          !!cache.get('kept-2', namespace) && !cache.get('kept-1', namespace),
        20_000,
        50,
      );
      expect(cache.get('unlabelled-1', namespace)).toBeUndefined();
      // the same object while the watch has not changed it
      expect(cache.get('kept-2', namespace)).toBe(cache.list(namespace)[0]);
    } finally {
      await cache.stop();
    }
    expect(cache.isHealthy).toBe(false);
  });
});

describe('watchSecrets withoutData', () => {
  it('keeps the metadata and type of each Secret, not its data', async () => {
    const name = uniqueName('metadata-only');
    await admin.must('POST', secretsPath, secret(name, 'kept out'));
    const cache = watchSecrets(
      new KubeClient(kubeConfigFromText(management.kubeconfig)),
      namespace,
      { withoutData: true },
    );
    await cache.start();
    try {
      await cache.synced;
      const held = cache.get(name, namespace)!;
      expect(held.metadata).toMatchObject({ name, namespace });
      expect(held.metadata.resourceVersion).toBeTruthy();
      expect(held.type).toBe('Opaque');
      expect(held).not.toHaveProperty('data');
    } finally {
      await cache.stop();
    }
  });
});

describe('watchClusters', () => {
  it('follows a Cluster created and deleted on the management cluster', async () => {
    const clusters = '/apis/infrared.darkshift.io/v1alpha1/clusters';
    const name = uniqueName('informer');
    const cache = watchClusters(
      new KubeClient(kubeConfigFromText(management.kubeconfig)),
    );
    await cache.start();
    try {
      await cache.synced;
      await admin.must('POST', clusters, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name },
        spec: { type: 'workload' },
      });
      await eventually(async () => !!cache.get(name), 20_000, 50);
      expect(cache.get(name)?.spec.type).toBe('workload');
      // the server's managedFields (most of a watched object) are not kept; the same object is read again
      expect(
        (await admin.must('GET', `${clusters}/${name}`)).body.metadata
          .managedFields,
      ).toBeDefined();
      expect(cache.get(name)?.metadata).not.toHaveProperty('managedFields');
      expect(cache.get(name)).toBe(cache.get(name));
      await admin.must('DELETE', `${clusters}/${name}`);
      await eventually(async () => !cache.get(name), 20_000, 50);
    } finally {
      await cache.stop();
      await admin.request('DELETE', `${clusters}/${name}`);
    }
  });
});
