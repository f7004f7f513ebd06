import {
  argoSecretName,
  ClusterConditionTypes,
  INFRARED_API_VERSION,
  kubeconfigSecretName,
} from './names';

describe('names', () => {
  it('derives the Secret names from the cluster name', () => {
    expect(kubeconfigSecretName('edge-1')).toBe('cluster-edge-1-kubeconfig');
    expect(argoSecretName('edge-1')).toBe('cluster-edge-1');
  });

  it('fixes the API group and the condition types', () => {
    expect(INFRARED_API_VERSION).toBe('infrared.darkshift.io/v1alpha1');
    expect(Object.values(ClusterConditionTypes)).toEqual([
      'Connected',
      'Registered',
    ]);
  });
});
