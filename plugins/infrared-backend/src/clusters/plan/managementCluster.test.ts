import { clusterResource } from '../__testUtils__/fixtures';
import {
  isManagementCluster,
  managementClusterResource,
  planManagementCluster,
} from './managementCluster';

describe('planManagementCluster', () => {
  const workload = clusterResource('edge');
  const management = clusterResource('infrared-mgmt', {
    spec: { type: 'management', connection: { inCluster: true } },
  });

  it.each([
    [
      'missing from the LIST: made, inCluster, type management, labelled',
      [workload],
      { create: managementClusterResource('infrared-mgmt') },
    ],
    ['there: nothing to do', [workload, management], {}],
    [
      'there with another type: a warning, nothing written',
      [clusterResource('infrared-mgmt')],
      {
        warning:
          'infrared: Cluster infrared-mgmt is the configured management cluster but has type workload',
      },
    ],
    ['no LIST (a pass over named Clusters): nothing to tell', undefined, {}],
  ])('%s', (_what, clusters, expected) => {
    expect(planManagementCluster(clusters, 'infrared-mgmt')).toEqual(expected);
  });

  it('makes it as the backend needs it', () => {
    expect(managementClusterResource('infrared-mgmt')).toEqual({
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: {
        name: 'infrared-mgmt',
        labels: { 'app.kubernetes.io/managed-by': 'infrared' },
      },
      spec: { type: 'management', connection: { inCluster: true } },
    });
  });
});

describe('isManagementCluster', () => {
  it.each([
    [
      'type management',
      clusterResource('other', { spec: { type: 'management' } }),
      true,
    ],
    ['the configured name', clusterResource('infrared-mgmt'), true],
    ['a workload cluster', clusterResource('edge'), false],
  ])('%s: %s', (_what, cluster, expected) => {
    expect(isManagementCluster(cluster, 'infrared-mgmt')).toBe(expected);
  });
});
