import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import {
  routeResolutionApiRef,
  useApiHolder,
} from '@backstage/frontend-plugin-api';
import { rootRouteRef } from '../routes';

/** Where the Clusters page is when the app does not say (the legacy system's documented mount). */
export const DEFAULT_CLUSTERS_PATH = '/clusters';

/** The query parameter the Clusters page reads to open its register form with the name filled in. */
export const REGISTER_PARAM = 'register';

export interface ClusterLinks {
  /** A cluster's panel: `<clusters page>/<name>` (useSelectedCluster opens it). */
  panel: (name: string) => string;
  /** The Clusters page's register form, with the name filled in. */
  register: (name: string) => string;
}

/**
 * Links to the Clusters page, resolved from the plugin's route ref (what `useRouteRef(rootRouteRef)`
 * resolves), so an app that mounts the page elsewhere gets its own paths. An app without route
 * resolution (the legacy system) or without the page bound gets the documented `/clusters`.
 */
export function useClusterLinks(): ClusterLinks {
  const apis = useApiHolder();
  const { pathname } = useLocation();
  const resolver = apis.get(routeResolutionApiRef);
  const root = useMemo(() => {
    try {
      return resolver?.resolve(rootRouteRef, { sourcePath: pathname })?.();
    } catch {
      return undefined;
    }
  }, [resolver, pathname]);
  const base = (root ?? DEFAULT_CLUSTERS_PATH).replace(/\/$/, '');
  return useMemo(
    () => ({
      panel: name => `${base}/${encodeURIComponent(name)}`,
      register: name =>
        `${base || '/'}?${REGISTER_PARAM}=${encodeURIComponent(name)}`,
    }),
    [base],
  );
}
