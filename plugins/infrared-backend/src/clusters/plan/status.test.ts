import type { ClusterStatus } from '@infrared-clusters/plugin-infrared-common';
import { clusterResource } from '../__testUtils__/fixtures';
import { statusWrite } from './status';

const desired: ClusterStatus = { nodes: 3, kubernetesVersion: 'v1.37.2' };

describe('statusWrite', () => {
  it('writes the owned fields on top of what it read, keeping the rest and the resourceVersion', () => {
    const current = clusterResource('edge', {
      status: { nodes: 1, detected: true },
      metadata: { resourceVersion: '42' },
    });
    expect(statusWrite(current, desired)).toEqual({
      ...current,
      status: { nodes: 3, kubernetesVersion: 'v1.37.2', detected: true },
    });
  });

  it.each([
    ['the Cluster is gone', undefined],
    [
      'the Cluster is being deleted',
      clusterResource('edge', {
        metadata: { deletionTimestamp: '2026-02-01T10:00:00Z' },
      }),
    ],
    [
      'the status already is that',
      clusterResource('edge', { status: { ...desired } }),
    ],
  ])('writes nothing when %s', (_what, current) => {
    expect(statusWrite(current, desired)).toBeUndefined();
  });
});
