import { bare } from './gitRepos';

/** One merged change on the default branch: its commit and the paths it added, changed or deleted. */
export interface MergedChange {
  commit: string;
  parents: number;
  added: string[];
  modified: string[];
  deleted: string[];
}

/**
 * The default branch's history as merged changes: every first-parent commit after the root, each
 * with the paths it changed against the branch before it (what a reviewer of the change saw).
 */
export function mergedChanges(path: string, branch = 'main'): MergedChange[] {
  const out = bare(path).run(
    'log',
    '--first-parent',
    '--diff-merges=first-parent',
    '--name-status',
    '--format=@%H %P',
    branch,
  );
  const changes: MergedChange[] = [];
  for (const block of out.split('@').filter(Boolean)) {
    const [header, ...lines] = block.trim().split('\n');
    const [commit, ...parents] = header.trim().split(' ');
    if (parents.length === 0) continue; // the repository's initial commit
    const change: MergedChange = {
      commit,
      parents: parents.length,
      added: [],
      modified: [],
      deleted: [],
    };
    for (const line of lines.filter(Boolean)) {
      const [status, file] = line.split('\t');
      if (status === 'A') change.added.push(file);
      else if (status === 'D') change.deleted.push(file);
      else change.modified.push(file);
    }
    changes.push(change);
  }
  return changes.reverse();
}

/** How many times each path was added, over all merged changes. */
export function additionsByPath(
  changes: readonly MergedChange[],
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const change of changes) {
    for (const file of change.added) {
      counts.set(file, (counts.get(file) ?? 0) + 1);
    }
  }
  return counts;
}
