import {
  ContinueTokenError,
  pageClusters,
  readClusterListParams,
  type ClusterListPage,
} from '@infrared-clusters/plugin-infrared-common';
import type { ClusterService } from '../clusters';
import type { PlacementService } from '../placement';
import { validationError } from './validationError';

/**
 * GET /v1/clusters: the filters, sort and page of its query over the service's list (a watch
 * cache: no LIST per request). 400 naming the parameter for bad input.
 */
export async function listClusters(
  query: Record<string, unknown>,
  clusters: ClusterService,
  placement: () => PlacementService,
): Promise<ClusterListPage> {
  const read = readClusterListParams(query);
  if ('errors' in read) throw validationError(read.errors);
  const { org, ...params } = read.params;
  const [all, allowed] = await Promise.all([
    clusters.list(),
    org ? placement().allowedClusters(org) : undefined,
  ]);
  try {
    return pageClusters(all, {
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
