import { setCondition } from './conditions';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-02-01T00:00:00Z';

describe('setCondition', () => {
  const base = [
    {
      type: 'Connected',
      status: 'True' as const,
      reason: 'Connected',
      message: 'a',
      lastTransitionTime: T0,
    },
    {
      type: 'Other',
      status: 'True' as const,
      reason: 'X',
      message: 'x',
      lastTransitionTime: T0,
    },
  ];

  it('keeps lastTransitionTime while the status stays, taking the new reason and message', () => {
    const out = setCondition(
      base,
      {
        type: 'Connected',
        status: 'True',
        reason: 'Connected',
        message: 'b',
        observedGeneration: 2,
      },
      T1,
    );
    expect(out[0]).toEqual({ ...base[0], message: 'b', observedGeneration: 2 });
    expect(out[1]).toBe(base[1]);
  });

  it('moves lastTransitionTime when the status changes', () => {
    const out = setCondition(
      base,
      {
        type: 'Connected',
        status: 'False',
        reason: 'Unreachable',
        message: 'down',
      },
      T1,
    );
    expect(out[0].lastTransitionTime).toBe(T1);
  });

  it('appends a new type and leaves the input alone', () => {
    const out = setCondition(
      base,
      { type: 'Registered', status: 'False', reason: 'Waiting', message: 'w' },
      T1,
    );
    expect(out.map(c => c.type)).toEqual(['Connected', 'Other', 'Registered']);
    expect(base).toHaveLength(2);
  });
});
