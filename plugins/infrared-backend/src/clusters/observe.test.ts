import type { SecretObject } from '@infrared-clusters/plugin-infrared-common';
import {
  clusterResource,
  stored,
  storedKubeconfigSecret,
} from './__testUtils__/fixtures';
import { resolveConnection } from './plan';
import { probeTarget, secretReads, type ListedSecrets } from './observe';

const kubeconfig = storedKubeconfigSecret('edge');
const argo = stored({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'Opaque',
  metadata: { name: 'cluster-edge', namespace: 'argocd' },
});
const listed = (
  kubeconfigs: SecretObject[],
  argos: SecretObject[],
): ListedSecrets => ({
  kubeconfigs: new Map(kubeconfigs.map(s => [s.metadata.name, s])),
  argos: new Map(argos.map(s => [s.metadata.name, s])),
});
const GET_KUBECONFIG = {
  get: { namespace: 'infrared', name: 'cluster-edge-kubeconfig' },
};
const GET_ARGO = { get: { namespace: 'argocd', name: 'cluster-edge' } };
const NONE = { none: true };

const workload = clusterResource('edge');
const inCluster = clusterResource('edge', {
  spec: { connection: { inCluster: true } },
});
const deleting = clusterResource('edge', {
  metadata: { deletionTimestamp: '2026-02-01T10:00:00Z' },
});

describe('secretReads', () => {
  it.each([
    [
      'both in the LISTs: no GET',
      workload,
      listed([kubeconfig], [argo]),
      { listed: kubeconfig },
      { listed: argo },
    ],
    [
      'a kubeconfig Secret made by hand (not labelled yet): a GET for it',
      workload,
      listed([], [argo]),
      GET_KUBECONFIG,
      { listed: argo },
    ],
    [
      "an Argo CD Secret not ours yet, or another's: a GET for it",
      workload,
      listed([kubeconfig], []),
      { listed: kubeconfig },
      GET_ARGO,
    ],
    [
      'an inCluster Cluster: only ours matters, and the LIST has ours',
      inCluster,
      listed([], []),
      NONE,
      NONE,
    ],
    [
      'no LISTs (named Clusters, a requeue): a GET for each',
      workload,
      undefined,
      GET_KUBECONFIG,
      GET_ARGO,
    ],
    [
      'no LISTs, inCluster: a GET for the Argo CD Secret (a stale one of ours)',
      inCluster,
      undefined,
      NONE,
      GET_ARGO,
    ],
    ['a Cluster being deleted: nothing', deleting, undefined, NONE, NONE],
  ])('%s', (_what, cluster, list, kubeconfigSecret, argoSecret) => {
    expect(secretReads(cluster, list)).toEqual({
      kubeconfigSecret,
      argoSecret,
    });
  });
});

describe('probeTarget', () => {
  it.each([
    ['a kubeconfig Cluster: its connection', workload, kubeconfig, true],
    ['an inCluster Cluster: its connection', inCluster, undefined, true],
    [
      'a missing kubeconfig Secret: nothing to probe',
      workload,
      undefined,
      false,
    ],
    ['a Cluster being deleted: not probed', deleting, kubeconfig, false],
  ])('%s', (_what, cluster, secret, probed) => {
    const connection = resolveConnection(cluster, secret);
    expect(probeTarget(cluster, connection)).toBe(
      probed ? connection : undefined,
    );
  });
});
