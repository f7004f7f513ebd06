import { createHash } from 'node:crypto';
import type { GitopsChange } from '@infrared-clusters/plugin-infrared-node';

const MAX_SLUG = 60;

/** Why a publisher closed for the backend's stop refuses a change. */
export const PUBLISHER_CLOSED_MESSAGE =
  'the gitops publisher is closed (the backend is stopping): the next pass publishes this change';

/** The key of a change that combines several (BatchingPublisher), and so its branch's prefix. */
export const BATCH_KEY_PREFIX = 'batch-';

/**
 * Whether a pull request's head branch belongs to `change`'s key: its own branch, or a batch's that
 * combined it with others (the batch's head is checked to hold the change before it counts).
 */
export function isBranchOfChange(ref: string, key: string): boolean {
  return (
    ref === branchForKey(key) || ref.startsWith(`infrared/${BATCH_KEY_PREFIX}`)
  );
}

/**
 * The branch of a change: `infrared/<key-slug>`. A short hash of the key is appended when the slug
 * had to drop characters, so two keys never share a branch.
 */
export function branchForKey(key: string): string {
  const slug = key
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!slug) {
    throw new Error(`gitops change key "${key}" has no letters or digits`);
  }
  if (slug === key && slug.length <= MAX_SLUG) {
    return `infrared/${slug}`;
  }
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return `infrared/${slug.slice(0, MAX_SLUG).replace(/-+$/, '')}-${hash}`;
}

/** The object id git (and GitHub) gives a file with this content. */
export function gitBlobSha(content: string): string {
  const data = Buffer.from(content, 'utf8');
  return createHash('sha1')
    .update(`blob ${data.length}\0`)
    .update(data)
    .digest('hex');
}

/** Refuses paths that could escape the repository or that git would not store as given. */
export function validateChange(change: GitopsChange): void {
  branchForKey(change.key);
  // Key and title become single-line commit trailers and subjects.
  const oneLine = (s: string) => [...s].every(c => c.charCodeAt(0) >= 0x20);
  if (!oneLine(change.key) || !oneLine(change.title) || !change.title.trim()) {
    throw new Error(
      `gitops change "${change.key}": key and title must be one non-empty line`,
    );
  }
  const paths = [...Object.keys(change.files), ...(change.deletions ?? [])];
  for (const path of paths) {
    const segments = path.split('/');
    if (
      path.startsWith('/') ||
      segments.some(s => s === '' || s === '.' || s === '..' || s === '.git') ||
      /[\0\n\r\\]/.test(path)
    ) {
      throw new Error(`gitops change "${change.key}": invalid path "${path}"`);
    }
  }
  const deleted = new Set(change.deletions ?? []);
  const both = Object.keys(change.files).find(p => deleted.has(p));
  if (both) {
    throw new Error(
      `gitops change "${change.key}": "${both}" is both written and deleted`,
    );
  }
}
