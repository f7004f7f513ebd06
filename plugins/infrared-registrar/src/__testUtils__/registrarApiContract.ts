/* eslint-disable jest/no-export -- a describe factory: two test files run its cases, one on the fake, one on the real API server */
import { uniqueName } from '@internal/devenv';
import { failure, shape } from './apiFailure';
import type { RegistrarApi } from '../api';
import { SOURCE_SECRET_FIELD_SELECTOR } from '../plan';
import type { RegistrarSecret } from '../types';

/** What a contract run needs of the API under test. */
export interface RegistrarApiContractSubject {
  api: RegistrarApi;
  /** Makes a namespace with these labels, as an administrator would. */
  createNamespace(name: string, labels: Record<string, string>): Promise<void>;
  /** Stores a Secret of any type (stringData or data), as another client would. */
  putSecret(secret: RegistrarSecret): Promise<void>;
  /** Removes what the run made. */
  cleanUp?(): Promise<void>;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

function secret(
  namespace: string,
  name: string,
  extra: Partial<RegistrarSecret> = {},
): RegistrarSecret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace },
    type: 'Opaque',
    stringData: { key: 'value' },
    ...extra,
  };
}

/**
 * The cases a RegistrarApi must pass the way the real API server does: label and field selectors,
 * metadata-only lists, resourceVersion and UID preconditions, and the 404 and 409 shapes. The same
 * suite runs against the in-memory fake (`MemoryRegistrarApi`, which the executor's tests use) and
 * against `KubeRegistrarApi` on the devenv control plane, so that the fake cannot drift.
 */
export function describeRegistrarApiContract(
  target: string,
  setUp: () => Promise<RegistrarApiContractSubject>,
): void {
  describe(`RegistrarApi contract: ${target}`, () => {
    let subject: RegistrarApiContractSubject;
    let api: RegistrarApi;
    /** Two namespaces of this run's own, labelled `contract=<run>` and `tier`. */
    let a: string;
    let b: string;
    const run = uniqueName('run');

    beforeAll(async () => {
      subject = await setUp();
      api = subject.api;
      a = uniqueName('rct-a');
      b = uniqueName('rct-b');
      await subject.createNamespace(a, { contract: run, tier: 'one' });
      await subject.createNamespace(b, { contract: run });
    });

    afterAll(async () => {
      await subject.cleanUp?.();
    });

    const names = (items: Array<{ metadata: { name: string } }>) =>
      items.map(i => i.metadata.name).sort();

    it('listNamespaces: equality, set-based and existence selectors; each with its uid, labels and creationTimestamp', async () => {
      expect(names(await api.listNamespaces(`contract=${run}`))).toEqual(
        [a, b].sort(),
      );
      expect(
        names(await api.listNamespaces(`contract=${run},tier=one`)),
      ).toEqual([a]);
      expect(
        names(await api.listNamespaces(`contract=${run},tier in (one,two)`)),
      ).toEqual([a]);
      expect(names(await api.listNamespaces(`contract=${run},!tier`))).toEqual([
        b,
      ]);
      expect(names(await api.listNamespaces(`contract=${run},tier`))).toEqual([
        a,
      ]);
      expect(await api.listNamespaces(`contract=${run},tier!=one`)).toEqual(
        await api.listNamespaces(`contract=${run},!tier`),
      );
      const [listed] = await api.listNamespaces(`contract=${run},tier=one`);
      expect(listed.metadata.uid).toBeTruthy();
      expect(listed.metadata.labels).toEqual({
        'kubernetes.io/metadata.name': a,
        contract: run,
        tier: 'one',
      });
      expect(Date.parse(listed.metadata.creationTimestamp!)).toBeGreaterThan(0);
    });

    it('getNamespace: the namespace as listed; undefined when there is none (404)', async () => {
      const [listed] = await api.listNamespaces(`contract=${run},tier=one`);
      expect(await api.getNamespace(a)).toEqual(listed);
      expect(await api.getNamespace(`${a}-absent`)).toBeUndefined();
    });

    it('listSecrets: across namespaces with their data; the types the field selector names are left out', async () => {
      await subject.putSecret(secret(a, 'kept', { stringData: { k: 'v' } }));
      await subject.putSecret(
        secret(b, 'release', {
          type: 'helm.sh/release.v1',
          stringData: { release: 'r' },
        }),
      );
      const ours = (await api.listSecrets(SOURCE_SECRET_FIELD_SELECTOR)).filter(
        s => [a, b].includes(s.metadata.namespace!),
      );
      expect(
        ours.map(s => `${s.metadata.namespace}/${s.metadata.name}`),
      ).toEqual([`${a}/kept`]);
      expect(ours[0]).toMatchObject({
        type: 'Opaque',
        data: { k: b64('v') },
      });
      expect(ours[0].stringData).toBeUndefined();
    });

    it('listSecretsMetadata and listSecretMetadata: metadata without data; the namespaced one lists every type', async () => {
      await subject.putSecret(
        secret(a, 'labelled', {
          metadata: { name: 'labelled', namespace: a, labels: { x: 'y' } },
        }),
      );
      await subject.putSecret(
        secret(a, 'helm', { type: 'helm.sh/release.v1' }),
      );
      const all = await api.listSecretsMetadata!(SOURCE_SECRET_FIELD_SELECTOR);
      expect(all.resourceVersion).toMatch(/^\d+$/);
      const inA = all.items.filter(s => s.metadata.namespace === a);
      expect(names(inA)).toEqual(['kept', 'labelled']);
      for (const s of inA) {
        expect(s.data).toBeUndefined();
        expect(s.metadata.uid).toBeTruthy();
        expect(s.metadata.resourceVersion).toMatch(/^\d+$/);
      }
      expect(
        inA.find(s => s.metadata.name === 'labelled')!.metadata.labels,
      ).toEqual({ x: 'y' });

      const namespaced = await api.listSecretMetadata!(a);
      expect(names(namespaced)).toEqual(['helm', 'kept', 'labelled']);
      expect(namespaced.every(s => s.data === undefined)).toBe(true);
    });

    it('getSecret: one Secret with its data; undefined when there is none', async () => {
      const got = await api.getSecret!(a, 'kept');
      expect(got).toMatchObject({
        metadata: { name: 'kept', namespace: a },
        type: 'Opaque',
        data: { k: b64('v') },
      });
      expect(await api.getSecret!(a, 'absent')).toBeUndefined();
    });

    it('createSecret: stored with a uid and a resourceVersion, stringData folded into data; a taken name is 409 AlreadyExists', async () => {
      const created = await api.createSecret(
        secret(b, 'made', {
          metadata: { name: 'made', namespace: b, labels: { l: '1' } },
        }),
      );
      expect(created.metadata).toMatchObject({
        name: 'made',
        namespace: b,
        labels: { l: '1' },
      });
      expect(created.metadata.uid).toBeTruthy();
      expect(created.metadata.resourceVersion).toMatch(/^\d+$/);
      expect(created.data).toEqual({ key: b64('value') });
      expect(created.stringData).toBeUndefined();
      expect(await api.getSecret!(b, 'made')).toEqual(created);
      expect(shape(await failure(api.createSecret(secret(b, 'made'))))).toEqual(
        {
          code: 409,
          reason: 'AlreadyExists',
          message: `CREATE secret ${b}/made: secrets "made" already exists`,
        },
      );
    });

    it('replaceSecret: the resourceVersion is the precondition (409 Conflict when it moved, nothing written); 404 when absent; the uid stays', async () => {
      const first = await api.createSecret(secret(b, 'replaced'));
      const second = await api.replaceSecret({
        ...first,
        data: { key: b64('two') },
      });
      expect(second.metadata.uid).toBe(first.metadata.uid);
      expect(second.metadata.resourceVersion).not.toBe(
        first.metadata.resourceVersion,
      );
      expect(second.data).toEqual({ key: b64('two') });
      expect(shape(await failure(api.replaceSecret(first)))).toEqual({
        code: 409,
        reason: 'Conflict',
        message: `UPDATE secret ${b}/replaced: Operation cannot be fulfilled on secrets "replaced": the object has been modified; please apply your changes to the latest version and try again`,
      });
      expect(await api.getSecret!(b, 'replaced')).toEqual(second);
      // A replace that changes nothing is a no-op: the resourceVersion stays.
      expect(await api.replaceSecret(second)).toEqual(second);
      expect(
        shape(await failure(api.replaceSecret(secret(b, 'never')))),
      ).toEqual({
        code: 404,
        reason: 'NotFound',
        message: `UPDATE secret ${b}/never: secrets "never" not found`,
      });
    });

    it('deleteSecret: UID and resourceVersion preconditions (409 Conflict, the Secret stays); 404 when absent', async () => {
      const made = await api.createSecret(secret(b, 'deleted'));
      const wrongUid = '00000000-0000-4000-8000-000000000000';
      expect(
        shape(await failure(api.deleteSecret(b, 'deleted', { uid: wrongUid }))),
      ).toEqual({
        code: 409,
        reason: 'Conflict',
        message: `DELETE secret ${b}/deleted: Operation cannot be fulfilled on Secret "deleted": the UID in the precondition (${wrongUid}) does not match the UID in record (${made.metadata.uid}). The object might have been deleted and then recreated`,
      });
      expect(
        shape(
          await failure(
            api.deleteSecret(b, 'deleted', {
              uid: made.metadata.uid,
              resourceVersion: '1',
            }),
          ),
        ),
      ).toEqual({
        code: 409,
        reason: 'Conflict',
        message: `DELETE secret ${b}/deleted: Operation cannot be fulfilled on Secret "deleted": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${made.metadata.resourceVersion}). The object might have been modified`,
      });
      expect(await api.getSecret!(b, 'deleted')).toEqual(made);
      await api.deleteSecret(b, 'deleted', {
        uid: made.metadata.uid,
        resourceVersion: made.metadata.resourceVersion,
      });
      expect(await api.getSecret!(b, 'deleted')).toBeUndefined();
      expect(shape(await failure(api.deleteSecret(b, 'deleted', {})))).toEqual({
        code: 404,
        reason: 'NotFound',
        message: `DELETE secret ${b}/deleted: secrets "deleted" not found`,
      });
    });

    it('counts one request per call, by verb, failed ones too', async () => {
      const before = api.counter.byVerb();
      await api.listNamespaces(`contract=${run}`);
      await api.getNamespace(a);
      await api.getSecret!(a, 'kept');
      const made = await api.createSecret(secret(b, 'counted'));
      await api.replaceSecret({ ...made, data: { key: b64('two') } });
      await failure(api.replaceSecret(made));
      await api.deleteSecret(b, 'counted', {});
      const after = api.counter.byVerb();
      const delta = Object.fromEntries(
        Object.entries(after)
          .map(([verb, n]) => [verb, n - (before[verb] ?? 0)])
          .filter(([, n]) => n),
      );
      expect(delta).toEqual({ LIST: 2, GET: 1, POST: 1, PUT: 2, DELETE: 1 });
    });
  });
}
