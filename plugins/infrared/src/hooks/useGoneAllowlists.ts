import { useEffect, useMemo, useState } from 'react';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  goneAllowlistEntries,
  type OrganizationView,
} from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../api';

export interface GoneEntry {
  org: string;
  cluster: string;
}

/**
 * Allowlist entries that name a cluster no Cluster has. When the page has every cluster loaded
 * (`complete`) it checks the names itself; otherwise it asks the backend's view of each allowlist
 * with a name it has not loaded (GET /v1/orgs/<org>/cluster-allowlist answers `gone`), again when
 * the orgs or the number of clusters change.
 */
export function useGoneAllowlists(
  orgs: OrganizationView[] | undefined,
  loaded: string[] | undefined,
  complete: boolean,
  overall: number,
): GoneEntry[] {
  const api = useApi(infraredApiRef);
  const local = useMemo(
    () =>
      (orgs ?? []).map(org => ({
        org: org.name,
        unknown: goneAllowlistEntries(org.clusterAllowlist, loaded ?? []),
      })),
    [orgs, loaded],
  );
  const ask = !complete && local.some(o => o.unknown.length > 0);
  const askKey = ask
    ? JSON.stringify(local.filter(o => o.unknown.length).map(o => o.org))
    : '';
  const [remote, setRemote] = useState<GoneEntry[]>([]);
  useEffect(() => {
    if (!askKey) return undefined;
    let live = true;
    const names: string[] = JSON.parse(askKey);
    Promise.all(
      names.map(org =>
        api.getClusterAllowlist(org).then(
          view => view.gone.map(cluster => ({ org, cluster })),
          () => [],
        ),
      ),
    ).then(lists => live && setRemote(lists.flat()));
    return () => {
      live = false;
    };
  }, [api, askKey, orgs, overall]);
  if (!loaded) return [];
  if (!ask) {
    return local.flatMap(o =>
      o.unknown.map(cluster => ({ org: o.org, cluster })),
    );
  }
  return remote;
}
