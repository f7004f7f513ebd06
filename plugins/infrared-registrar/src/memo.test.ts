import { StringMemo } from './memo';

/** Asks `memo` for each text in order, `rounds` times, and says how many were computed. */
function computedOver(
  memo: StringMemo<string>,
  texts: string[],
  rounds: number,
  between: () => void = () => {},
): number {
  const counted = { computed: 0 };
  const upper = (text: string) => {
    counted.computed++;
    return text.toUpperCase();
  };
  for (let round = 0; round < rounds; round++) {
    for (const text of texts) memo.get(text, () => upper(text));
    between();
  }
  return counted.computed;
}

describe('StringMemo', () => {
  it('answers a fleet larger than its bound from memory after the first pass', () => {
    // Each pass asks for every kubeconfig in the same order: a least-recently-used bound smaller
    // than the fleet would evict each entry just before it is asked for again.
    const memo = new StringMemo<string>(3);
    expect(computedOver(memo, ['a', 'b', 'c', 'd'], 3)).toBe(4);
  });

  it('keeps across full passes what each pass uses, and forgets what two sweeps did not see', () => {
    const memo = new StringMemo<string>();
    const sweep = () => memo.sweep();
    expect(computedOver(memo, ['a', 'b'], 3, sweep)).toBe(2);
    expect(memo.get('a', () => 'computed')).toBe('A');
    expect(computedOver(memo, ['c'], 2, sweep)).toBe(1);
    // only 'c' is kept: the last two passes did not ask for 'a' and 'b'
    expect(memo.size).toBe(1);
    expect(memo.get('b', () => 'computed again')).toBe('computed again');
  });
});
