import {
  ContinueTokenError,
  KeptClusterPages,
  type ClusterListPage,
  type ClusterListParams,
} from '@infrared-clusters/plugin-infrared-common';
import type { ClusterService } from '../clusters';
import type { PlacementService } from '../placement';
import { validationError } from './validationError';

/** The watch cache's list is a new array once it changed, never changed in place. */
const pages = new KeptClusterPages();

/**
 * GET /v1/clusters: the filters, sort and page of its query (as -common's readClusterListParams
 * read it) over the service's list (a watch cache: no LIST per request). 400 naming `continue`
 * for a token of other filters.
 */
export async function listClusters(
  query: ClusterListParams,
  clusters: ClusterService,
  placement: () => PlacementService,
): Promise<ClusterListPage> {
  const { org, ...params } = query;
  const [all, allowed] = await Promise.all([
    clusters.list(),
    org ? placement().allowedClusters(org) : undefined,
  ]);
  try {
    return pages.page(all, {
      ...params,
      ...(allowed ? { names: new Set(allowed) } : {}),
    });
  } catch (e) {
    if (e instanceof ContinueTokenError) {
      throw validationError([{ field: 'continue', message: e.message }]);
    }
    throw e;
  }
}
