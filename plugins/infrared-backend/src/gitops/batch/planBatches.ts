import type { GitopsChange } from '@infrared-clusters/plugin-infrared-node';

const pathsOf = (change: GitopsChange) => [
  ...Object.keys(change.files),
  ...(change.deletions ?? []),
];

/**
 * The next batch from a queue, in arrival order: changes join while the batch stays within
 * `maxFiles` paths and touches no path twice (a later change to the same path waits for the next
 * batch, so it is never lost in a merge). The first change always goes, however large.
 */
export function planBatches<T>(
  queue: readonly T[],
  changeOf: (item: T) => GitopsChange,
  maxFiles: number,
): { batch: T[]; rest: T[] } {
  const batch: T[] = [];
  const rest: T[] = [];
  const taken = new Set<string>();
  for (const item of queue) {
    const paths = pathsOf(changeOf(item));
    const fits =
      !batch.length ||
      (taken.size + paths.length <= maxFiles &&
        paths.every(p => !taken.has(p)));
    if (fits && !rest.length) {
      batch.push(item);
      paths.forEach(p => taken.add(p));
    } else {
      rest.push(item);
    }
  }
  return { batch, rest };
}
