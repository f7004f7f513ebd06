import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '@backstage/frontend-plugin-api';
import type { ProductPlacementView } from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../api';

export interface ProductPlacementState {
  placement?: ProductPlacementView;
  /** The last load's error, cleared by the next success. */
  error?: Error;
  reload: () => Promise<void>;
  /** Sets a zone's cluster (`""`: the management cluster); the answer is the new placement. */
  setZoneCluster: (zone: string, cluster: string) => Promise<void>;
  /** Adds a cluster to the org's allowlist (platform admins), then reloads. */
  allowCluster: (org: string, cluster: string) => Promise<void>;
  /** Approves a zone of a Release awaiting approval, then reloads. */
  approveZone: (release: string, zone: string) => Promise<void>;
}

/** A Product's zone placement, from GET /v1/products/{namespace}/{name}/placement. */
export function useProductPlacement(
  namespace: string,
  name: string,
): ProductPlacementState {
  const api = useApi(infraredApiRef);
  const [placement, setPlacement] = useState<ProductPlacementView>();
  const [error, setError] = useState<Error>();
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const reload = useCallback(async () => {
    try {
      const answer = await api.getProductPlacement(namespace, name);
      if (!mounted.current) return;
      setPlacement(answer);
      setError(undefined);
    } catch (e) {
      if (mounted.current) setError(e as Error);
    }
  }, [api, namespace, name]);

  useEffect(() => {
    reload();
  }, [reload]);

  const setZoneCluster = useCallback(
    async (zone: string, cluster: string) => {
      const answer = await api.setZoneCluster(namespace, name, zone, cluster);
      if (mounted.current) setPlacement(answer);
    },
    [api, namespace, name],
  );

  const allowCluster = useCallback(
    async (org: string, cluster: string) => {
      const current = await api.getClusterAllowlist(org);
      const clusters = [...new Set([...current.clusters, cluster])].sort();
      await api.replaceClusterAllowlist(org, clusters);
      await reload();
    },
    [api, reload],
  );

  const approveZone = useCallback(
    async (release: string, zone: string) => {
      await api.approveReleaseZone(namespace, name, release, zone);
      await reload();
    },
    [api, namespace, name, reload],
  );

  return {
    placement,
    error,
    reload,
    setZoneCluster,
    allowCluster,
    approveZone,
  };
}
