import type {
  DiscoveredClusterInput,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import {
  discoveredClustersFromSecrets,
  listDiscoveredClusters,
  type DiscoveredClustersOptions,
  type SecretLister,
} from '@infrared-clusters/infrared-registrar';

/** The registrar's Secrets as a watch keeps them (a WatchedCache from infrared-kube fits). */
export interface WatchedDiscovered {
  readonly isHealthy: boolean;
  /** Grows whenever the watched list changes. */
  readonly version: number;
  list(): SecretObject[];
}

/** What the registrar's last pass adds to the children, and a number that grows when it changes. */
export interface RegistrarPasses {
  apply(listed: DiscoveredClusterInput[]): DiscoveredClusterInput[];
  version(): number;
}

export interface DiscoveredListOptions {
  /** Lists the Secrets live while the watch is not healthy (ManagementApi.secrets fits). */
  secrets: SecretLister;
  options: DiscoveredClustersOptions;
  watched?: WatchedDiscovered;
  passes?: RegistrarPasses;
}

/**
 * The registrar's children beside the Clusters on GET /v1/clusters. From the watch of the
 * registrar's Argo CD Secrets when it is healthy: the same array while neither the watch nor the
 * registrar's last pass changed, so the list's sorted pages are kept (issue 25: a LIST and a sort
 * of 10,000 Clusters per page of 100). A LIST per call while the watch is not healthy.
 */
export class DiscoveredList {
  private kept?: {
    watchVersion: number;
    passesVersion: number;
    listed: DiscoveredClusterInput[];
  };

  constructor(private readonly o: DiscoveredListOptions) {}

  async list(): Promise<DiscoveredClusterInput[]> {
    const { watched, passes } = this.o;
    if (!watched?.isHealthy) {
      this.kept = undefined;
      const listed = await listDiscoveredClusters(
        this.o.secrets,
        this.o.options,
      );
      return passes?.apply(listed) ?? listed;
    }
    const watchVersion = watched.version;
    const passesVersion = passes?.version() ?? 0;
    if (
      this.kept?.watchVersion === watchVersion &&
      this.kept.passesVersion === passesVersion
    ) {
      return this.kept.listed;
    }
    const found = discoveredClustersFromSecrets(watched.list(), this.o.options);
    const listed = passes?.apply(found) ?? found;
    this.kept = { watchVersion, passesVersion, listed };
    return listed;
  }
}
