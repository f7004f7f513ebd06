/**
 * Removing a cluster that zones use (issue 22.7): the zones that name it are listed before the
 * Cluster goes, and its name is taken off every org's allowlist in the same operation, so a cluster
 * registered later under that name is not allowed until a platform admin ticks it again.
 */
import {
  clusterRemovalMessage,
  zonesOnCluster,
  type ClusterRemovalView,
} from '@infrared-clusters/plugin-infrared-common';
import type { PlacementService } from './service';

export interface ClusterRemovalSteps {
  /** Deletes the Cluster (ClusterService.remove): refuses the management cluster, 404s. */
  remove: (name: string) => Promise<void>;
  /** Undefined without placement: no zones listed, no allowlist touched. */
  placement?: Pick<
    PlacementService,
    'listZones' | 'listOrgs' | 'replaceAllowlist'
  >;
}

/** Removes the cluster; answers the zones that stop deploying and the allowlists it left. */
export async function removeClusterWithPlacement(
  steps: ClusterRemovalSteps,
  name: string,
): Promise<ClusterRemovalView> {
  const { placement } = steps;
  const zones = placement
    ? zonesOnCluster(await placement.listZones(), name)
    : [];
  await steps.remove(name);
  const allowlists: string[] = [];
  // the Cluster is gone by now: an allowlist that cannot be changed is said, not a failed removal
  const failed: { org: string; error: string }[] = [];
  if (placement) {
    for (const org of await placement.listOrgs()) {
      if (!org.clusterAllowlist.includes(name)) continue;
      try {
        const change = await placement.replaceAllowlist(org.name, before =>
          before.filter(c => c !== name),
        );
        if (change.changed) allowlists.push(org.name);
      } catch (e) {
        failed.push({ org: org.name, error: (e as Error).message });
      }
    }
  }
  return {
    name,
    zones,
    allowlists,
    message: clusterRemovalMessage(name, zones, allowlists, failed),
  };
}
