import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useApi } from '@backstage/frontend-plugin-api';
import type {
  OrganizationView,
  ZoneView,
} from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../api';
import {
  placementByCluster,
  toggledAllowlist,
  type ClusterPlacement,
} from '../lib/clusterPlacement';

/** How often orgs and zones are read again while the page is open. */
export const PLACEMENT_REFRESH_MS = 15_000;

export interface ClusterPlacementState {
  /** Every Organization (for the panel's checkboxes), once loaded. */
  orgs?: OrganizationView[];
  /** Zones and allowed orgs by cluster name, once loaded. */
  byCluster?: ReadonlyMap<string, ClusterPlacement>;
  /** The last load's error, cleared by the next success. */
  error?: Error;
  refresh: () => Promise<void>;
  /** Adds the cluster to the org's allowlist (or takes it out) through the API, then reloads. */
  setAllowed: (org: string, cluster: string, allowed: boolean) => Promise<void>;
}

/**
 * Organizations and Product zones for the Clusters page: what runs on each cluster and which orgs
 * may use it. Loaded with the page and every 15 s after; the same answer keeps the same map, so
 * the table does not render again.
 */
export function useClusterPlacement(
  refreshMs: number = PLACEMENT_REFRESH_MS,
): ClusterPlacementState {
  const api = useApi(infraredApiRef);
  const [data, setData] = useState<{
    orgs: OrganizationView[];
    zones: ZoneView[];
  }>();
  const [error, setError] = useState<Error>();
  const last = useRef<string>();
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const refresh = useCallback(async () => {
    try {
      const [orgs, zones] = await Promise.all([
        api.listOrganizations(),
        api.listZones(),
      ]);
      if (!mounted.current) return;
      const answer = JSON.stringify([orgs, zones]);
      if (answer !== last.current) {
        last.current = answer;
        setData({ orgs, zones });
      }
      setError(undefined);
    } catch (e) {
      if (mounted.current) setError(e as Error);
    }
  }, [api]);

  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, refreshMs);
    return () => clearInterval(timer);
  }, [refresh, refreshMs]);

  const byCluster = useMemo(
    () => data && placementByCluster(data.orgs, data.zones),
    [data],
  );

  const setAllowed = useCallback(
    async (org: string, cluster: string, allowed: boolean) => {
      // The list as it is now, not as the page loaded it: another admin may have changed it.
      const current = await api.getClusterAllowlist(org);
      await api.replaceClusterAllowlist(
        org,
        toggledAllowlist(
          { clusterAllowlist: current.clusters },
          cluster,
          allowed,
        ),
      );
      await refresh();
    },
    [api, refresh],
  );

  return { orgs: data?.orgs, byCluster, error, refresh, setAllowed };
}
