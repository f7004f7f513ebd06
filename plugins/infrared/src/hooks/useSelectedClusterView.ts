import { useEffect, useState } from 'react';
import { useApi } from '@backstage/frontend-plugin-api';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../api';

/**
 * The cluster whose panel is open: from the loaded rows when it is among them, else read on its
 * own (a link to a cluster the loaded pages do not reach, or one the filters leave out), and read
 * again with each refresh of the list (`generation`). Undefined while it loads and for a name no
 * cluster has.
 */
export function useSelectedClusterView(
  name: string | undefined,
  loaded: ClusterView[] | undefined,
  generation: number,
): ClusterView | undefined {
  const api = useApi(infraredApiRef);
  const inList = name ? loaded?.find(c => c.name === name) : undefined;
  const [read, setRead] = useState<ClusterView>();
  // Ask only once the list answered, and only for a cluster it does not have.
  const ask = !!name && !!loaded && !inList;
  useEffect(() => {
    if (!ask || !name) return undefined;
    let live = true;
    api.getCluster(name).then(
      c => live && setRead(c),
      () => live && setRead(undefined),
    );
    return () => {
      live = false;
    };
  }, [api, ask, name, generation]);
  if (inList) return inList;
  return ask && read?.name === name ? read : undefined;
}
