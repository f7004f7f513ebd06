import type { V1Secret } from '@kubernetes/client-node';
import type { SecretObject } from '@infrared-clusters/plugin-infrared-common';
import type { KubeClient } from './client';
import { forEachLimited } from './concurrency';
import { plainMeta, plainSecret } from './meta';
import { listAllPages } from './pagedList';

/** More Secrets than this changed since the last LIST: one LIST with data instead of a GET each. */
const BULK_READ_OVER = 20;
const GETS_AT_ONCE = 8;

/**
 * The Secrets of one LIST (a namespace and a label selector) kept between LISTs: each LIST asks
 * for metadata only and reads the data of a Secret only when its uid or resourceVersion changed
 * (issue 25: at 1,000 clusters the kubeconfig Secrets' data was most of what a pass parsed). A
 * Secret that did not change is answered as the same object as before.
 */
export class SecretListCache {
  private readonly entries = new Map<string, SecretObject>();
  /** Requests of the last LIST that read data: GETs, or 1 for a LIST with data. Tests read it. */
  lastDataReads = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly namespace: string,
    private readonly labelSelector?: string,
  ) {}

  private get path() {
    return `/api/v1/namespaces/${encodeURIComponent(this.namespace)}/secrets`;
  }

  async list(): Promise<SecretObject[]> {
    const { labelSelector } = this;
    const listed = await listAllPages<V1Secret>(this.kube, this.path, {
      labelSelector,
      metadataOnly: true,
    });
    const metas = listed.items.map(s => plainMeta(s.metadata));
    const stale = metas.filter(meta => {
      const hit = this.entries.get(meta.name);
      return (
        hit?.metadata.uid !== meta.uid ||
        hit?.metadata.resourceVersion !== meta.resourceVersion
      );
    });
    this.lastDataReads = 0;
    if (stale.length > BULK_READ_OVER) {
      this.lastDataReads = 1;
      const full = await listAllPages<V1Secret>(this.kube, this.path, {
        labelSelector,
      });
      this.entries.clear();
      for (const s of full.items) {
        const secret = plainSecret(s);
        this.entries.set(secret.metadata.name, secret);
      }
      return [...this.entries.values()];
    }
    await forEachLimited(stale, GETS_AT_ONCE, async meta => {
      this.lastDataReads++;
      const secret = await this.read(meta.name);
      if (secret) this.entries.set(meta.name, secret);
      else this.entries.delete(meta.name);
    });
    const names = new Set(metas.map(m => m.name));
    for (const name of this.entries.keys()) {
      if (!names.has(name)) this.entries.delete(name);
    }
    return metas.flatMap(meta => this.entries.get(meta.name) ?? []);
  }

  private async read(name: string): Promise<SecretObject | undefined> {
    try {
      return plainSecret(
        await this.kube.getLight<V1Secret>(
          `${this.path}/${encodeURIComponent(name)}`,
        ),
      );
    } catch (e) {
      // deleted between the LIST and the GET: not there any more
      if ((e as { code?: number }).code === 404) return undefined;
      throw e;
    }
  }
}
