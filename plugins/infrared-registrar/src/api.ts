import type { V1Namespace, V1Secret } from '@kubernetes/client-node';
import {
  KubeClient,
  RequestCounter,
  kubeCall,
  listAllPages,
  orUndefined,
  plainMeta,
  plainSecret,
  type PagedListOptions,
} from '@infrared-clusters/infrared-kube';
import type { NamespaceObject, RegistrarSecret } from './types';

/**
 * The few API calls the registrar makes (RBAC: namespaces get/list, secrets list, and in the target namespace secrets create/update/delete).
 *
 * @public
 */
export interface RegistrarApi {
  /** `LIST namespaces -l <selector>`. */
  listNamespaces(
    labelSelector: string,
    signal?: AbortSignal,
  ): Promise<NamespaceObject[]>;
  /** `GET namespaces/<name>`, never cached; undefined when NotFound. */
  getNamespace(
    name: string,
    signal?: AbortSignal,
  ): Promise<NamespaceObject | undefined>;
  /** `LIST secrets` across all namespaces, with a field selector. */
  listSecrets(
    fieldSelector: string,
    signal?: AbortSignal,
  ): Promise<RegistrarSecret[]>;
  /**
   * `LIST secrets` across all namespaces as PartialObjectMetadataList (no data), with a field
   * selector; and the list's resourceVersion (where a watch may start). Optional: without it (and
   * `getSecret`) a pass lists every Secret with its data.
   */
  listSecretsMetadata?(
    fieldSelector: string,
    signal?: AbortSignal,
  ): Promise<{ items: RegistrarSecret[]; resourceVersion?: string }>;
  /**
   * One Secret with its data: `LIST secrets -n <namespace> --field-selector metadata.name=<name>`
   * (the `list` verb the registrar already has cluster-wide; no `get`). Undefined when gone.
   */
  getSecret?(
    namespace: string,
    name: string,
    signal?: AbortSignal,
  ): Promise<RegistrarSecret | undefined>;
  /**
   * `LIST secrets -n <namespace>` with a field selector, with their data: one namespace's Secrets,
   * for a pass scoped to what a watch saw change. Optional: without it every pass is a full one.
   */
  listSecretsIn?(
    namespace: string,
    fieldSelector: string,
    signal?: AbortSignal,
  ): Promise<RegistrarSecret[]>;
  /**
   * `LIST secrets -n <namespace>` as PartialObjectMetadataList: names, labels, uids and
   * resourceVersions without data, every type included. A pass asks only when it is about to
   * create, to see the names the field-selected LIST leaves out (a Helm release or token Secret
   * named `cluster-<name>`). Optional: without it those names are found by the create's AlreadyExists.
   */
  listSecretMetadata?(
    namespace: string,
    signal?: AbortSignal,
  ): Promise<RegistrarSecret[]>;
  createSecret(
    secret: RegistrarSecret,
    signal?: AbortSignal,
  ): Promise<RegistrarSecret>;
  /** `PUT`; `metadata.resourceVersion` is the precondition (409 Conflict when it moved). */
  replaceSecret(
    secret: RegistrarSecret,
    signal?: AbortSignal,
  ): Promise<RegistrarSecret>;
  /** `DELETE` with preconditions (409 Conflict when the object is another incarnation). */
  deleteSecret(
    namespace: string,
    name: string,
    preconditions: { uid?: string; resourceVersion?: string },
    signal?: AbortSignal,
  ): Promise<void>;
  /** Every request sent. */
  readonly counter: RequestCounter;
}

function plainNamespace(n: V1Namespace): NamespaceObject {
  const m = plainMeta(n.metadata);
  return {
    metadata: {
      name: m.name,
      uid: m.uid,
      labels: m.labels,
      annotations: m.annotations,
      creationTimestamp: m.creationTimestamp,
      deletionTimestamp: m.deletionTimestamp,
      resourceVersion: m.resourceVersion,
    },
  };
}

function namespacedSecrets(namespace: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`;
}

/**
 * How KubeRegistrarApi reads.
 *
 * @public
 */
export interface KubeRegistrarApiOptions {
  /**
   * Objects per page of a LIST (`limit`/`continue`); a page over the read bound is asked again at
   * half. Default 1,000 for metadata, 250 for Secrets with their data (a kubeconfig is ~4 KB).
   */
  pageSize?: number;
}

const METADATA_PAGE = 1000;
const DATA_PAGE = 250;

/**
 * RegistrarApi over `@kubernetes/client-node`, through the shared KubeClient (bounded in time).
 * Its own counter names requests by operation (LIST, GET, POST, PUT, DELETE); a LIST counts
 * each of its pages. Every LIST is paged, so no LIST's answer grows with the fleet (issue 25).
 *
 * @public
 */
export class KubeRegistrarApi implements RegistrarApi {
  readonly counter = new RequestCounter();

  constructor(
    private readonly kube: KubeClient,
    private readonly options: KubeRegistrarApiOptions = {},
  ) {}

  private opts(signal?: AbortSignal) {
    return this.kube.callOptions({ signal });
  }

  /** Every page of a LIST path, each page counted as one LIST. */
  private async pages<T>(
    path: string,
    options: PagedListOptions & { dataPageSize?: boolean },
  ) {
    const { dataPageSize, ...paged } = options;
    const counted = {
      getLight: (...args: Parameters<KubeClient['getLight']>) => {
        this.counter.count('LIST');
        return this.kube.getLight(...args);
      },
    } as KubeClient;
    return listAllPages<T>(counted, path, {
      pageSize:
        this.options.pageSize ?? (dataPageSize ? DATA_PAGE : METADATA_PAGE),
      ...paged,
    });
  }

  listNamespaces(labelSelector: string, signal?: AbortSignal) {
    return kubeCall(`LIST namespaces -l ${labelSelector}`, async () => {
      const list = await this.pages<V1Namespace>('/api/v1/namespaces', {
        labelSelector,
        signal,
        metadataOnly: true,
      });
      return list.items.map(plainNamespace);
    });
  }

  getNamespace(name: string, signal?: AbortSignal) {
    this.counter.count('GET');
    return orUndefined(
      kubeCall(`GET namespace ${name}`, async () =>
        plainNamespace(
          await this.kube.getLight<V1Namespace>(
            `/api/v1/namespaces/${encodeURIComponent(name)}`,
            signal,
          ),
        ),
      ),
    );
  }

  listSecrets(fieldSelector: string, signal?: AbortSignal) {
    return kubeCall('LIST secrets (all namespaces)', async () => {
      const list = await this.pages<V1Secret>('/api/v1/secrets', {
        fieldSelector,
        signal,
        dataPageSize: true,
      });
      return list.items.map(plainSecret);
    });
  }

  listSecretsMetadata(fieldSelector: string, signal?: AbortSignal) {
    return kubeCall('LIST secrets (all namespaces, metadata)', async () => {
      const list = await this.pages<V1Secret>('/api/v1/secrets', {
        fieldSelector,
        signal,
        metadataOnly: true,
      });
      return {
        items: list.items.map(s => ({ metadata: plainMeta(s.metadata) })),
        resourceVersion: list.resourceVersion,
      };
    });
  }

  getSecret(namespace: string, name: string, signal?: AbortSignal) {
    this.counter.count('LIST');
    return kubeCall(`LIST secrets -n ${namespace} ${name}`, async () => {
      const list = await this.kube.core.listNamespacedSecret(
        { namespace, fieldSelector: `metadata.name=${name}` },
        this.opts(signal),
      );
      const found = list.items.find(s => s.metadata?.name === name);
      return found ? plainSecret(found) : undefined;
    });
  }

  listSecretsIn(
    namespace: string,
    fieldSelector: string,
    signal?: AbortSignal,
  ) {
    return kubeCall(`LIST secrets -n ${namespace}`, async () => {
      const list = await this.pages<V1Secret>(namespacedSecrets(namespace), {
        fieldSelector,
        signal,
        dataPageSize: true,
      });
      return list.items.map(plainSecret);
    });
  }

  listSecretMetadata(namespace: string, signal?: AbortSignal) {
    return kubeCall(`LIST secrets -n ${namespace} (metadata)`, async () => {
      const list = await this.pages<V1Secret>(namespacedSecrets(namespace), {
        signal,
        metadataOnly: true,
      });
      return list.items.map(s => ({ metadata: plainMeta(s.metadata) }));
    });
  }

  createSecret(secret: RegistrarSecret, signal?: AbortSignal) {
    const { namespace = 'default', name } = secret.metadata;
    this.counter.count('POST');
    return kubeCall(`CREATE secret ${namespace}/${name}`, async () =>
      plainSecret(
        await this.kube.core.createNamespacedSecret(
          { namespace, body: secret as V1Secret },
          this.opts(signal),
        ),
      ),
    );
  }

  replaceSecret(secret: RegistrarSecret, signal?: AbortSignal) {
    const { namespace = 'default', name } = secret.metadata;
    this.counter.count('PUT');
    return kubeCall(`UPDATE secret ${namespace}/${name}`, async () =>
      plainSecret(
        await this.kube.core.replaceNamespacedSecret(
          { namespace, name, body: secret as V1Secret },
          this.opts(signal),
        ),
      ),
    );
  }

  async deleteSecret(
    namespace: string,
    name: string,
    preconditions: { uid?: string; resourceVersion?: string },
    signal?: AbortSignal,
  ) {
    this.counter.count('DELETE');
    const pre = Object.fromEntries(
      Object.entries(preconditions).filter(([, v]) => v),
    );
    await kubeCall(`DELETE secret ${namespace}/${name}`, () =>
      this.kube.core.deleteNamespacedSecret(
        {
          namespace,
          name,
          body: Object.keys(pre).length ? { preconditions: pre } : undefined,
        },
        this.opts(signal),
      ),
    );
  }
}
