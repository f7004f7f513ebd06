import { isDeepStrictEqual } from 'node:util';
import { KubeApiError, RequestCounter } from '@infrared-clusters/infrared-kube';
import { matchesLabelSelector } from '@infrared-clusters/infrared-kube/testUtils';
import type { RegistrarApi } from '../api';
import { withData } from '../secrets';
import type { NamespaceObject, RegistrarSecret } from '../types';

const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o));

function matchesTypeSelector(type: string | undefined, selector: string) {
  return selector
    .split(',')
    .filter(Boolean)
    .every(term => {
      const ne = /^type!=(.*)$/.exec(term);
      if (ne) return (type ?? 'Opaque') !== ne[1];
      const eq = /^type==?(.*)$/.exec(term);
      if (eq) return (type ?? 'Opaque') === eq[1];
      throw new Error(`unsupported field selector ${term}`);
    });
}

/** The API server's 404 for a Secret, as KubeRegistrarApi reports it. */
const notFound = (what: string, name: string) =>
  new KubeApiError(404, 'NotFound', `${what}: secrets "${name}" not found`);

/**
 * The API server's 409 Conflict for a Secret, as KubeRegistrarApi reports it (an update names the
 * resource, `secrets`; a delete's precondition the kind, `Secret`).
 */
const conflict = (what: string, on: string, name: string, why: string) =>
  new KubeApiError(
    409,
    'Conflict',
    `${what}: Operation cannot be fulfilled on ${on} "${name}": ${why}`,
  );

/**
 * Makes a request of {@link MemoryRegistrarApi} fail: the error to answer `verb` on `target` with, or
 * undefined to let it through.
 *
 * @public
 */
export type FailHook = (
  verb: string,
  target: { namespace?: string; name: string },
) => KubeApiError | undefined;

/**
 * An in-memory API server for executor tests: preconditions, resourceVersions, request counts.
 *
 * @public
 */
export class MemoryRegistrarApi implements RegistrarApi {
  readonly counter = new RequestCounter();
  readonly namespaces = new Map<string, NamespaceObject>();
  readonly secrets = new Map<string, RegistrarSecret>();
  private rv = 1000;
  fail?: FailHook;

  private key = (ns: string | undefined, name: string) => `${ns}/${name}`;

  addNamespace(ns: NamespaceObject) {
    this.namespaces.set(ns.metadata.name, clone(ns));
  }

  /** A namespace as the API server makes one: a uid, a creationTimestamp, the name label. */
  createNamespace(name: string, labels: Record<string, string> = {}) {
    this.addNamespace({
      metadata: {
        name,
        uid: `uid-${name}-${++this.rv}`,
        labels: { ...labels, 'kubernetes.io/metadata.name': name },
        creationTimestamp: '2026-08-07T14:30:00Z',
        resourceVersion: String(this.rv),
      },
    });
  }

  addSecret(s: RegistrarSecret) {
    const stored = clone(withData(s));
    stored.metadata.resourceVersion ??= String(++this.rv);
    stored.metadata.uid ??= `uid-${stored.metadata.namespace}-${stored.metadata.name}`;
    this.secrets.set(
      this.key(stored.metadata.namespace, stored.metadata.name),
      stored,
    );
  }

  secret(namespace: string, name: string) {
    return this.secrets.get(this.key(namespace, name));
  }

  private check(verb: string, t: { namespace?: string; name: string }) {
    this.counter.count(verb);
    const e = this.fail?.(verb, t);
    if (e) throw e;
  }

  async listNamespaces(labelSelector: string) {
    this.check('LIST', { name: 'namespaces' });
    return [...this.namespaces.values()]
      .filter(n => matchesLabelSelector(n.metadata.labels, labelSelector))
      .map(clone);
  }

  async getNamespace(name: string) {
    this.check('GET', { name });
    const n = this.namespaces.get(name);
    return n ? clone(n) : undefined;
  }

  async listSecrets(fieldSelector: string) {
    this.check('LIST', { name: 'secrets' });
    return [...this.secrets.values()]
      .filter(s => matchesTypeSelector(s.type, fieldSelector))
      .map(clone);
  }

  async listSecretsMetadata(fieldSelector: string) {
    this.check('LIST', { name: 'secrets' });
    return {
      items: [...this.secrets.values()]
        .filter(s => matchesTypeSelector(s.type, fieldSelector))
        .map(s => ({ metadata: clone(s.metadata) })),
      resourceVersion: String(this.rv),
    };
  }

  /** Each Secret fetched with its data, in order. */
  readonly fetched: string[] = [];

  async getSecret(namespace: string, name: string) {
    this.check('LIST', { namespace, name });
    this.fetched.push(`${namespace}/${name}`);
    const s = this.secrets.get(this.key(namespace, name));
    return s ? clone(s) : undefined;
  }

  async listSecretsIn(namespace: string, fieldSelector: string) {
    this.check('LIST', { name: `secrets -n ${namespace}` });
    return [...this.secrets.values()]
      .filter(
        s =>
          s.metadata.namespace === namespace &&
          matchesTypeSelector(s.type, fieldSelector),
      )
      .map(clone);
  }

  async listSecretMetadata(namespace: string) {
    this.check('LIST', { name: `secrets -n ${namespace} (metadata)` });
    return [...this.secrets.values()]
      .filter(s => s.metadata.namespace === namespace)
      .map(s => ({ metadata: clone(s.metadata) }));
  }

  async createSecret(secret: RegistrarSecret) {
    const { namespace, name } = secret.metadata;
    this.check('POST', { namespace, name });
    if (this.secrets.has(this.key(namespace, name))) {
      throw new KubeApiError(
        409,
        'AlreadyExists',
        `CREATE secret ${namespace}/${name}: secrets "${name}" already exists`,
      );
    }
    const stored = clone(withData(secret));
    stored.metadata.uid = `uid-${namespace}-${name}-${++this.rv}`;
    stored.metadata.resourceVersion = String(++this.rv);
    stored.metadata.creationTimestamp = '2026-08-07T14:30:00Z';
    this.secrets.set(this.key(namespace, name), stored);
    return clone(stored);
  }

  async replaceSecret(secret: RegistrarSecret) {
    const { namespace, name } = secret.metadata;
    this.check('PUT', { namespace, name });
    const what = `UPDATE secret ${namespace}/${name}`;
    const live = this.secrets.get(this.key(namespace, name));
    if (!live) throw notFound(what, name);
    if (
      secret.metadata.resourceVersion &&
      secret.metadata.resourceVersion !== live.metadata.resourceVersion
    ) {
      throw conflict(
        what,
        'secrets',
        name,
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    const stored = clone(withData(secret));
    stored.metadata.uid = live.metadata.uid;
    stored.metadata.resourceVersion = live.metadata.resourceVersion;
    // As the API server: a write that changes nothing is a no-op and keeps the resourceVersion.
    if (isDeepStrictEqual(stored, live)) return clone(live);
    stored.metadata.resourceVersion = String(++this.rv);
    this.secrets.set(this.key(namespace, name), stored);
    return clone(stored);
  }

  async deleteSecret(
    namespace: string,
    name: string,
    pre: { uid?: string; resourceVersion?: string },
  ) {
    this.check('DELETE', { namespace, name });
    const what = `DELETE secret ${namespace}/${name}`;
    const live = this.secrets.get(this.key(namespace, name));
    if (!live) throw notFound(what, name);
    if (pre.uid && pre.uid !== live.metadata.uid) {
      throw conflict(
        what,
        'Secret',
        name,
        `the UID in the precondition (${pre.uid}) does not match the UID in record (${live.metadata.uid}). The object might have been deleted and then recreated`,
      );
    }
    if (
      pre.resourceVersion &&
      pre.resourceVersion !== live.metadata.resourceVersion
    ) {
      throw conflict(
        what,
        'Secret',
        name,
        `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${live.metadata.resourceVersion}). The object might have been modified`,
      );
    }
    this.secrets.delete(this.key(namespace, name));
  }
}
