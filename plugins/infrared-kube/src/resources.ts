import { PatchStrategy, type V1Secret } from '@kubernetes/client-node';
import {
  CLUSTER_PLURAL,
  INFRARED_GROUP,
  INFRARED_VERSION,
  type ClusterResource,
  type ClusterStatus,
  type ObjectMeta,
  type OwnerReference,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { KubeClient } from './client';
import { kubeCall as call, orUndefined } from './errors';
import { plainSecret } from './meta';
import { listAllPages } from './pagedList';
import { SecretListCache } from './secretList';
import type { ClusterApi, ManagementApi, SecretApi } from './types';

const CLUSTER = {
  group: INFRARED_GROUP,
  version: INFRARED_VERSION,
  plural: CLUSTER_PLURAL,
};

const merge = (kube: KubeClient) =>
  kube.callOptions({ contentType: PatchStrategy.MergePatch });

/**
 * Clusters through the CustomObjects API (plain JSON in and out).
 *
 * @public
 */
export class KubeClusterApi implements ClusterApi {
  constructor(private readonly kube: KubeClient) {}

  async list(): Promise<ClusterResource[]> {
    const list = await call('LIST clusters', () =>
      listAllPages<ClusterResource>(
        this.kube,
        `/apis/${CLUSTER.group}/${CLUSTER.version}/${CLUSTER.plural}`,
      ),
    );
    return list.items;
  }

  get(name: string): Promise<ClusterResource | undefined> {
    return orUndefined(
      call(`GET cluster ${name}`, () =>
        this.kube.custom.getClusterCustomObject({ ...CLUSTER, name }),
      ),
    );
  }

  create(cluster: ClusterResource): Promise<ClusterResource> {
    return call(`CREATE cluster ${cluster.metadata.name}`, () =>
      this.kube.custom.createClusterCustomObject({ ...CLUSTER, body: cluster }),
    );
  }

  async delete(name: string, options: { uid?: string } = {}): Promise<void> {
    await call(`DELETE cluster ${name}`, () =>
      this.kube.custom.deleteClusterCustomObject({
        ...CLUSTER,
        name,
        propagationPolicy: 'Background',
        body: options.uid ? { preconditions: { uid: options.uid } } : undefined,
      }),
    );
  }

  replaceStatus(cluster: ClusterResource): Promise<ClusterResource> {
    const name = cluster.metadata.name;
    return call(`UPDATE cluster ${name} status`, () =>
      this.kube.custom.replaceClusterCustomObjectStatus({
        ...CLUSTER,
        name,
        body: cluster,
      }),
    );
  }

  patchStatus(
    name: string,
    status: Partial<ClusterStatus>,
    resourceVersion?: string,
  ): Promise<ClusterResource> {
    const body: any = { status };
    if (resourceVersion) body.metadata = { resourceVersion };
    return call(`PATCH cluster ${name} status`, () =>
      this.kube.custom.patchClusterCustomObjectStatus(
        { ...CLUSTER, name, body },
        merge(this.kube),
      ),
    );
  }

  patchMetadata(
    name: string,
    metadata: Pick<ObjectMeta, 'labels' | 'annotations'>,
    resourceVersion?: string,
  ): Promise<ClusterResource> {
    const body = {
      metadata: {
        ...metadata,
        ...(resourceVersion ? { resourceVersion } : {}),
      },
    };
    return call(`PATCH cluster ${name}`, () =>
      this.kube.custom.patchClusterCustomObject(
        { ...CLUSTER, name, body },
        merge(this.kube),
      ),
    );
  }
}

/**
 * Secrets through CoreV1Api.
 *
 * @public
 */
export class KubeSecretApi implements SecretApi {
  /** One per namespace and selector listed: the data of unchanged Secrets is not read again. */
  private readonly lists = new Map<string, SecretListCache>();

  constructor(private readonly kube: KubeClient) {}

  get(namespace: string, name: string): Promise<SecretObject | undefined> {
    return orUndefined(
      call(`GET secret ${namespace}/${name}`, async () =>
        plainSecret(
          await this.kube.core.readNamespacedSecret({ namespace, name }),
        ),
      ),
    );
  }

  list(namespace: string, labelSelector?: string): Promise<SecretObject[]> {
    const key = `${namespace}?${labelSelector ?? ''}`;
    let cache = this.lists.get(key);
    if (!cache) {
      cache = new SecretListCache(this.kube, namespace, labelSelector);
      this.lists.set(key, cache);
    }
    const listed = cache;
    return call(`LIST secrets in ${namespace}`, () => listed.list());
  }

  create(secret: SecretObject): Promise<SecretObject> {
    const { namespace = 'default', name } = secret.metadata;
    return call(`CREATE secret ${namespace}/${name}`, async () =>
      plainSecret(
        await this.kube.core.createNamespacedSecret({
          namespace,
          body: secret as V1Secret,
        }),
      ),
    );
  }

  replace(secret: SecretObject): Promise<SecretObject> {
    const { namespace = 'default', name } = secret.metadata;
    return call(`UPDATE secret ${namespace}/${name}`, async () =>
      plainSecret(
        await this.kube.core.replaceNamespacedSecret({
          namespace,
          name,
          body: secret as V1Secret,
        }),
      ),
    );
  }

  patchMetadata(
    namespace: string,
    name: string,
    metadata: {
      labels?: Record<string, string>;
      ownerReferences?: OwnerReference[];
    },
    resourceVersion?: string,
  ): Promise<SecretObject> {
    const body = {
      metadata: {
        ...metadata,
        ...(resourceVersion ? { resourceVersion } : {}),
      },
    };
    return call(`PATCH secret ${namespace}/${name}`, async () =>
      plainSecret(
        await this.kube.core.patchNamespacedSecret(
          { namespace, name, body },
          merge(this.kube),
        ),
      ),
    );
  }

  async delete(
    namespace: string,
    name: string,
    options: { uid?: string } = {},
  ): Promise<void> {
    await call(`DELETE secret ${namespace}/${name}`, () =>
      this.kube.core.deleteNamespacedSecret({
        namespace,
        name,
        body: options.uid ? { preconditions: { uid: options.uid } } : undefined,
      }),
    );
  }
}

/**
 * The management cluster's Clusters and Secrets through one client.
 *
 * @public
 */
export function managementApi(kube: KubeClient): ManagementApi {
  return {
    clusters: new KubeClusterApi(kube),
    secrets: new KubeSecretApi(kube),
    counter: kube.counter,
  };
}
