import { validateRegisterClusterRequest } from '../api/validate';
import { billableActionProblem, isBillableAction } from './billable';
import { validateSetProvisionAction } from './action';

describe('the billable-action rule, one for every route', () => {
  it.each<[unknown, unknown, string | undefined]>([
    ['plan', undefined, undefined],
    ['plan', false, undefined],
    [undefined, undefined, undefined],
    ['apply', true, undefined],
    ['destroy', true, undefined],
    ['apply', undefined, 'cost money until you destroy them'],
    ['apply', false, 'cost money until you destroy them'],
    ['destroy', undefined, 'deletes the cloud resources'],
    ['apply', 'yes', 'must be true or false'],
  ])('action %p, acknowledgeBillable %p', (action, ack, problem) => {
    const found = billableActionProblem(action, ack);
    expect(found?.field ?? 'none').toBe(
      problem === undefined ? 'none' : 'acknowledgeBillable',
    );
    expect(found?.message ?? '').toContain(problem ?? '');
  });

  it('apply and destroy are billable, plan is not', () => {
    expect(['plan', 'apply', 'destroy', 'x'].map(isBillableAction)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  const templates = [
    {
      module: 'local/demo',
      version: 'v1',
      title: 'Demo',
      description: '',
      variables: [],
    },
  ];
  const register = (action: string, extra: object = {}) =>
    validateRegisterClusterRequest(
      {
        name: 'built',
        template: { module: 'local/demo', version: 'v1' },
        provision: { action },
        ...extra,
      },
      { templates },
    );

  it('POST /v1/clusters refuses apply and destroy without the acknowledgement, with the action route’s words', () => {
    for (const action of ['apply', 'destroy']) {
      const refused = register(action);
      const route = validateSetProvisionAction({ action });
      expect('errors' in refused && refused.errors).toEqual(
        'errors' in route && route.errors,
      );
    }
  });

  it('POST /v1/clusters takes apply with acknowledgeBillable true, and leaves it out of the request it passes on', () => {
    const accepted = register('apply', { acknowledgeBillable: true });
    expect(accepted).toEqual({
      value: {
        name: 'built',
        template: { module: 'local/demo', version: 'v1' },
        provision: { action: 'apply' },
      },
    });
  });

  it('POST /v1/clusters refuses an acknowledgeBillable that is not a boolean, naming it', () => {
    const refused = register('plan', { acknowledgeBillable: 'yes' });
    expect('errors' in refused && refused.errors).toEqual([
      {
        field: 'acknowledgeBillable',
        message: 'acknowledgeBillable must be true or false',
      },
    ]);
  });
});
