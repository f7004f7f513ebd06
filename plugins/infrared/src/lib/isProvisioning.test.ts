import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { isInProgress, isProvisioning } from './clusterStatus';

const registeredConditions = ['Connected', 'Registered'].map(type => ({
  type,
  status: 'True' as const,
  reason: 'R',
  message: '',
  lastTransitionTime: '',
}));

const built = (provision: ClusterView['provision']): ClusterView => ({
  name: 'b',
  type: 'workload',
  connection: 'kubeconfig',
  conditions: registeredConditions,
  createdAt: '',
  template: { module: 'm' },
  provision,
});
const job = (
  action: string,
  phase: 'Waiting' | 'Running' | 'Succeeded' | 'Failed',
) => ({
  action,
  phase,
  generation: 1,
  job: 'j',
});

describe('isProvisioning: the page keeps refreshing while a Job is to come or runs', () => {
  it.each<[string, ClusterView['provision'], boolean]>([
    ['no Job yet', { action: 'plan' }, true],
    ['a Job waiting', { action: 'plan', status: job('plan', 'Waiting') }, true],
    [
      'a Job running',
      { action: 'apply', status: job('apply', 'Running') },
      true,
    ],
    [
      'destroy asked, the apply Job finished',
      { action: 'destroy', status: job('apply', 'Succeeded') },
      true,
    ],
    ['applied', { action: 'apply', status: job('apply', 'Succeeded') }, false],
    [
      'a failed apply (never retried)',
      { action: 'apply', status: job('apply', 'Failed') },
      false,
    ],
    ['not built', undefined, false],
  ])('%s: %s', (_what, provision, expected) => {
    expect(isProvisioning(built(provision))).toBe(expected);
    expect(isInProgress(built(provision))).toBe(expected);
  });
});
