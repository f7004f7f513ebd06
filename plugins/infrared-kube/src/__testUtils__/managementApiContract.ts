/* eslint-disable jest/no-export -- a describe factory: two test files run its cases, one on the fake, one on the real API server */
import type {
  ClusterResource,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { uniqueName } from '@internal/devenv';
import { failure, shape } from './apiFailure';
import type { ManagementApi } from '../types';

/** What a contract run needs of the API under test. */
export interface ManagementApiContractSubject {
  api: ManagementApi;
  /** A namespace of this run's own, for Secrets. */
  namespace: string;
  /** Waits for what the API server does in the background (the garbage collector). */
  eventually<T>(check: () => Promise<T | undefined | false>): Promise<T>;
}

const GROUP = 'clusters.infrared.darkshift.io';
const CLUSTER_KIND = 'Cluster.infrared.darkshift.io';

const notFound = (what: string, resource: string, name: string) => ({
  code: 404,
  reason: 'NotFound',
  message: `${what}: ${resource} "${name}" not found`,
});

const modified = (what: string, resource: string, name: string) => ({
  code: 409,
  reason: 'Conflict',
  message: `${what}: Operation cannot be fulfilled on ${resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
});

const otherUid = (
  what: string,
  kind: string,
  name: string,
  precondition: string,
  actual: string,
) => ({
  code: 409,
  reason: 'Conflict',
  message: `${what}: Operation cannot be fulfilled on ${kind} "${name}": the UID in the precondition (${precondition}) does not match the UID in record (${actual}). The object might have been deleted and then recreated`,
});

function cluster(name: string): ClusterResource {
  return {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: { type: 'workload' },
  };
}

function secret(
  namespace: string,
  name: string,
  metadata: Partial<SecretObject['metadata']> = {},
): SecretObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name, namespace, ...metadata },
    stringData: { key: 'value' },
  };
}

const ownedBy = (c: ClusterResource) => ({
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Cluster',
  name: c.metadata.name,
  uid: c.metadata.uid!,
});

/**
 * The cases a ManagementApi must pass the way the real API server does. The same suite runs against
 * the in-memory fake (`InMemoryManagementApi`) and against a client on the devenv control plane, so
 * that the fake cannot drift from the server the product talks to. Names are unique per run.
 */
export function describeManagementApiContract(
  target: string,
  setUp: () => Promise<ManagementApiContractSubject>,
): void {
  describe(`ManagementApi contract: ${target}`, () => {
    let subject: ManagementApiContractSubject;
    let api: ManagementApi;
    let ns: string;
    const clusters: string[] = [];
    const name = (prefix: string) => {
      const n = uniqueName(prefix);
      clusters.push(n);
      return n;
    };

    beforeAll(async () => {
      subject = await setUp();
      api = subject.api;
      ns = subject.namespace;
    });

    afterAll(async () => {
      for (const n of clusters) {
        await api.clusters.delete(n).catch(() => undefined);
      }
    });

    it('create: stores a new object with a uid, a resourceVersion and generation 1, without the status (status subresource)', async () => {
      const n = name('ct-create');
      const created = await api.clusters.create({
        ...cluster(n),
        status: { nodes: 9 },
      });
      expect(created.metadata).toMatchObject({ name: n, generation: 1 });
      expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.metadata.resourceVersion).toMatch(/^\d+$/);
      expect(created.metadata.creationTimestamp).toBeTruthy();
      expect(created.status).toBeUndefined();
      expect(created.spec).toEqual({ type: 'workload' });
      expect(await api.clusters.get(n)).toEqual(created);
      expect((await api.clusters.list()).map(c => c.metadata.name)).toContain(
        n,
      );
    });

    it('409 AlreadyExists: a taken name, with the reason and message of the API server', async () => {
      const n = name('ct-exists');
      await api.clusters.create(cluster(n));
      expect(shape(await failure(api.clusters.create(cluster(n))))).toEqual({
        code: 409,
        reason: 'AlreadyExists',
        message: `CREATE cluster ${n}: ${GROUP} "${n}" already exists`,
      });

      const s = uniqueName('ct-exists');
      await api.secrets.create(secret(ns, s));
      expect(shape(await failure(api.secrets.create(secret(ns, s))))).toEqual({
        code: 409,
        reason: 'AlreadyExists',
        message: `CREATE secret ${ns}/${s}: secrets "${s}" already exists`,
      });
    });

    it('resourceVersion conflicts: a stale write is 409 Conflict and changes nothing; a current one moves the resourceVersion', async () => {
      const n = name('ct-rv');
      const created = await api.clusters.create(cluster(n));
      const stale = created.metadata.resourceVersion!;
      const written = await api.clusters.replaceStatus({
        ...created,
        status: { nodes: 1 },
      });
      expect(written.metadata.resourceVersion).not.toBe(stale);
      expect(written.status).toEqual({ nodes: 1 });

      const status = `UPDATE cluster ${n} status`;
      expect(
        shape(
          await failure(
            api.clusters.replaceStatus({ ...created, status: { nodes: 2 } }),
          ),
        ),
      ).toEqual(modified(status, GROUP, n));
      expect(
        shape(await failure(api.clusters.patchStatus(n, { nodes: 3 }, stale))),
      ).toEqual(modified(`PATCH cluster ${n} status`, GROUP, n));
      expect(
        shape(
          await failure(
            api.clusters.patchMetadata(n, { labels: { a: 'b' } }, stale),
          ),
        ),
      ).toEqual(modified(`PATCH cluster ${n}`, GROUP, n));
      expect(await api.clusters.get(n)).toEqual(written);

      // Without a resourceVersion a patch applies to whatever is there.
      const patched = await api.clusters.patchStatus(n, { nodes: 4 });
      expect(patched.status).toEqual({ nodes: 4 });

      const s = uniqueName('ct-rv');
      const first = await api.secrets.create(secret(ns, s));
      const second = await api.secrets.replace({
        ...first,
        data: { key: Buffer.from('two').toString('base64') },
      });
      expect(second.metadata.resourceVersion).not.toBe(
        first.metadata.resourceVersion,
      );
      expect(second.metadata.uid).toBe(first.metadata.uid);
      expect(shape(await failure(api.secrets.replace(first)))).toEqual(
        modified(`UPDATE secret ${ns}/${s}`, 'secrets', s),
      );
      expect(
        shape(
          await failure(
            api.secrets.patchMetadata(
              ns,
              s,
              { labels: { a: 'b' } },
              first.metadata.resourceVersion,
            ),
          ),
        ),
      ).toEqual(modified(`PATCH secret ${ns}/${s}`, 'secrets', s));
      expect(await api.secrets.get(ns, s)).toEqual(second);
    });

    it('UID preconditions: a delete aimed at another incarnation is 409 Conflict and leaves the object; the right uid deletes', async () => {
      const n = name('ct-uid');
      const c = await api.clusters.create(cluster(n));
      const wrong = '00000000-0000-4000-8000-000000000000';
      expect(
        shape(await failure(api.clusters.delete(n, { uid: wrong }))),
      ).toEqual(
        otherUid(
          `DELETE cluster ${n}`,
          CLUSTER_KIND,
          n,
          wrong,
          c.metadata.uid!,
        ),
      );
      expect(await api.clusters.get(n)).toEqual(c);
      await api.clusters.delete(n, { uid: c.metadata.uid });
      await subject.eventually(async () => !(await api.clusters.get(n)));

      const s = uniqueName('ct-uid');
      const created = await api.secrets.create(secret(ns, s));
      expect(
        shape(await failure(api.secrets.delete(ns, s, { uid: wrong }))),
      ).toEqual(
        otherUid(
          `DELETE secret ${ns}/${s}`,
          'Secret',
          s,
          wrong,
          created.metadata.uid!,
        ),
      );
      expect(await api.secrets.get(ns, s)).toEqual(created);
      await api.secrets.delete(ns, s, { uid: created.metadata.uid });
      expect(await api.secrets.get(ns, s)).toBeUndefined();
    });

    it('label selectors: equality, inequality, existence, absence and set-based terms', async () => {
      const app = uniqueName('ct-sel');
      const labelled: Record<string, Record<string, string>> = {
        web: { app, tier: 'web' },
        db: { app, tier: 'db' },
        bare: { app },
      };
      for (const [suffix, labels] of Object.entries(labelled)) {
        await api.secrets.create(secret(ns, `${app}-${suffix}`, { labels }));
      }
      const selected = async (selector: string) =>
        (await api.secrets.list(ns, `app=${app},${selector}`))
          .map(s => s.metadata.name.slice(app.length + 1))
          .sort();
      expect(
        (await api.secrets.list(ns, `app=${app}`)).map(s => s.metadata.name),
      ).toHaveLength(3);
      expect(await selected('tier=web')).toEqual(['web']);
      expect(await selected('tier==db')).toEqual(['db']);
      expect(await selected('tier!=web')).toEqual(['bare', 'db']);
      expect(await selected('tier')).toEqual(['db', 'web']);
      expect(await selected('!tier')).toEqual(['bare']);
      expect(await selected('tier in (web,db)')).toEqual(['db', 'web']);
      expect(await selected('tier notin (web)')).toEqual(['bare', 'db']);
      expect(await selected('tier=cache')).toEqual([]);
      expect(await api.secrets.list(ns, `app=${app}-other`)).toEqual([]);
    });

    it('ownerReference garbage collection: a dependent goes with its only owner, and stays while another owner lives', async () => {
      const a = await api.clusters.create(cluster(name('ct-gc-a')));
      const b = await api.clusters.create(cluster(name('ct-gc-b')));
      const only = uniqueName('ct-gc-only');
      const both = uniqueName('ct-gc-both');
      await api.secrets.create(
        secret(ns, only, { ownerReferences: [ownedBy(a)] }),
      );
      await api.secrets.create(
        secret(ns, both, { ownerReferences: [ownedBy(a), ownedBy(b)] }),
      );
      expect(
        (await api.secrets.get(ns, only))!.metadata.ownerReferences,
      ).toEqual([ownedBy(a)]);

      await api.clusters.delete(a.metadata.name);
      await subject.eventually(async () => !(await api.secrets.get(ns, only)));
      const kept = await subject.eventually(async () => {
        const s = await api.secrets.get(ns, both);
        // The collector removes the deleted owner's reference from a dependent it keeps.
        return s?.metadata.ownerReferences?.length === 1 && s;
      });
      expect(kept.metadata.ownerReferences).toEqual([ownedBy(b)]);
    });

    it('404 NotFound: reads answer undefined, writes and deletes throw the reason and message of the API server', async () => {
      const n = uniqueName('ct-absent');
      expect(await api.clusters.get(n)).toBeUndefined();
      expect(await api.secrets.get(ns, n)).toBeUndefined();
      expect(shape(await failure(api.clusters.delete(n)))).toEqual(
        notFound(`DELETE cluster ${n}`, GROUP, n),
      );
      expect(
        shape(
          await failure(
            api.clusters.replaceStatus({
              ...cluster(n),
              metadata: { name: n, resourceVersion: '1' },
              status: { nodes: 1 },
            }),
          ),
        ),
      ).toEqual(notFound(`UPDATE cluster ${n} status`, GROUP, n));
      expect(
        shape(await failure(api.clusters.patchStatus(n, { nodes: 1 }))),
      ).toEqual(notFound(`PATCH cluster ${n} status`, GROUP, n));
      expect(
        shape(
          await failure(api.clusters.patchMetadata(n, { labels: { a: 'b' } })),
        ),
      ).toEqual(notFound(`PATCH cluster ${n}`, GROUP, n));
      expect(shape(await failure(api.secrets.delete(ns, n)))).toEqual(
        notFound(`DELETE secret ${ns}/${n}`, 'secrets', n),
      );
      expect(
        shape(
          await failure(
            api.secrets.replace({
              ...secret(ns, n),
              metadata: { name: n, namespace: ns, resourceVersion: '1' },
            }),
          ),
        ),
      ).toEqual(notFound(`UPDATE secret ${ns}/${n}`, 'secrets', n));
      expect(
        shape(
          await failure(
            api.secrets.patchMetadata(ns, n, { labels: { a: 'b' } }),
          ),
        ),
      ).toEqual(notFound(`PATCH secret ${ns}/${n}`, 'secrets', n));
    });

    it('merge patches: status through the subresource (null removes a key), labels and annotations (null removes); generation stays', async () => {
      const n = name('ct-merge');
      await api.clusters.create({
        ...cluster(n),
        metadata: { name: n, labels: { keep: '1', drop: '1' } },
      });
      await api.clusters.patchStatus(n, { nodes: 2, kubernetesVersion: 'v1' });
      const status = await api.clusters.patchStatus(n, {
        kubernetesVersion: null as any,
      });
      expect(status.status).toEqual({ nodes: 2 });
      const meta = await api.clusters.patchMetadata(n, {
        labels: { drop: null as any, add: '2' },
        annotations: { note: 'x' },
      });
      expect(meta.metadata.labels).toEqual({ keep: '1', add: '2' });
      expect(meta.metadata.annotations).toEqual({ note: 'x' });
      expect(meta.metadata.generation).toBe(1);
      expect(meta.status).toEqual({ nodes: 2 });

      const s = uniqueName('ct-merge');
      const c = await api.clusters.get(n);
      await api.secrets.create(secret(ns, s, { labels: { keep: '1' } }));
      const patched = await api.secrets.patchMetadata(ns, s, {
        labels: { add: '2' },
        ownerReferences: [ownedBy(c!)],
      });
      expect(patched.metadata.labels).toEqual({ keep: '1', add: '2' });
      expect(patched.metadata.ownerReferences).toEqual([ownedBy(c!)]);
    });

    it('Secrets: stringData is stored base64 in data, and the type defaults to Opaque', async () => {
      const s = uniqueName('ct-data');
      const { type: _type, ...untyped } = secret(ns, s);
      const created = await api.secrets.create(untyped as SecretObject);
      expect(created).toMatchObject({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        data: { key: Buffer.from('value').toString('base64') },
      });
      expect(created).not.toHaveProperty('stringData');
      expect(await api.secrets.get(ns, s)).toEqual(created);
    });
  });
}
