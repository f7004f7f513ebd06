import { formatStaleSince, parseStaleSince, propagatedLabels } from './labels';

describe('stale-since', () => {
  it('round-trips the basic ISO 8601 form', () => {
    const at = new Date('2026-08-07T14:30:05.123Z');
    expect(formatStaleSince(at)).toBe('20260807T143005Z');
    expect(parseStaleSince('20260807T143005Z')).toEqual(
      new Date('2026-08-07T14:30:05Z'),
    );
  });

  it.each([
    '',
    'yesterday',
    '2026-08-07T14:30:05Z',
    '20261340T000000Z',
    '20260807T250000Z',
  ])('refuses %j', v => {
    expect(parseStaleSince(v)).toBeUndefined();
  });
});

describe('propagatedLabels', () => {
  it('keeps prefixed labels but the reserved suffixes', () => {
    expect(
      propagatedLabels(
        {
          'p/flux': 'true',
          'p/managed-by': 'x',
          'p/superseded-by': 'y',
          'p/orphaned-secret-type': 'z',
          'q/a': 'b',
        },
        'p/',
      ),
    ).toEqual({ 'p/flux': 'true' });
  });
});
