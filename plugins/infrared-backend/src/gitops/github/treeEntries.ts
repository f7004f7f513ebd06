import type { GitopsChange } from '@infrared-clusters/plugin-infrared-node';
import { gitBlobSha } from '../change';
import type { TreeEntry } from './session';

/**
 * Tree entries for the git data API: the files that differ (all of them with `unchanged`), and
 * deletions of paths that exist.
 */
export function treeEntries(
  change: GitopsChange,
  present: Map<string, string | undefined>,
  options: { unchanged?: boolean } = {},
): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const [path, content] of Object.entries(change.files)) {
    if (options.unchanged || present.get(path) !== gitBlobSha(content)) {
      entries.push({ path, mode: '100644', type: 'blob', content });
    }
  }
  for (const path of change.deletions ?? []) {
    if (present.get(path) !== undefined) {
      entries.push({ path, mode: '100644', type: 'blob', sha: null });
    }
  }
  return entries;
}
