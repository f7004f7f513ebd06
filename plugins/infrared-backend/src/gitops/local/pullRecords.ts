import { Git } from './git';

const PULLS = 'refs/infrared/pulls';

const CLOSED = 'refs/infrared/closed';

/**
 * A local "pull request". Each one is a ref `refs/infrared/pulls/<number>`, outside the branches, that
 * points at the branch commit while open and at the merge commit once merged; the key travels as a commit
 * trailer. Refs make number allocation atomic across processes (create fails when the ref exists).
 * One that was never merged is closed by a ref `refs/infrared/closed/<number>` beside it.
 */
export interface LocalPullRequest {
  number: number;
  key: string;
  title: string;
  branch: string;
  merged: boolean;
  /** Closed without merging: another change landed the same files first. */
  closed: boolean;
  commit: string;
}

export function pullRef(number: number): string {
  return `${PULLS}/${number}`;
}

function closedRef(number: number): string {
  return `${CLOSED}/${number}`;
}

export function pullMessage(
  kind: 'branch' | 'merge',
  pr: {
    number: number;
    key: string;
    title: string;
    body: string;
    branch: string;
  },
): string {
  const trailers = `Infrared-Key: ${pr.key}\nInfrared-Pull: ${pr.number}\nInfrared-Branch: ${pr.branch}\n`;
  const text = `${pr.title}\n\n${
    pr.body.trim() ? `${pr.body.trim()}\n\n` : ''
  }`;
  return kind === 'branch'
    ? `${text}${trailers}`
    : `Merge pull request #${pr.number} from ${pr.branch}\n\n${text}${trailers}`;
}

function trailer(message: string, name: string): string | undefined {
  const matches = [...message.matchAll(new RegExp(`^${name}: (.*)$`, 'gm'))];
  return matches.length ? matches[matches.length - 1][1] : undefined;
}

const isOpen = (record: LocalPullRequest) => !record.merged && !record.closed;

export async function listPullRecords(git: Git): Promise<LocalPullRequest[]> {
  const out = await git.run([
    'for-each-ref',
    '--format=%(refname)%00%(objectname)%00%(parent)%00%(contents)%1e',
    PULLS,
    CLOSED,
  ]);
  const entries = out
    .split('\x1e')
    .map(raw => raw.replace(/^\n/, '').split('\0'));
  const closed = new Set(
    entries
      .filter(([ref]) => ref?.startsWith(`${CLOSED}/`))
      .map(([ref]) => Number(ref.slice(CLOSED.length + 1))),
  );
  const records: LocalPullRequest[] = [];
  for (const [ref, commit, parents, message] of entries) {
    if (!ref?.startsWith(`${PULLS}/`) || !message) continue;
    const merged = parents.trim().split(' ').length === 2;
    const lines = message.split('\n');
    records.push({
      number: Number(ref.slice(PULLS.length + 1)),
      key: trailer(message, 'Infrared-Key') ?? '',
      branch: trailer(message, 'Infrared-Branch') ?? '',
      title: (merged ? lines[2] : lines[0]) ?? '',
      merged,
      closed: !merged && closed.has(Number(ref.slice(PULLS.length + 1))),
      commit,
    });
  }
  return records.sort((a, b) => a.number - b.number);
}

/**
 * Points the open pull request of `key` (a new number when none is open) and its branch at a new branch
 * commit, in one ref transaction. `makeCommit` builds the commit for a number (the number is in its message).
 */
export async function pushPullBranch(
  git: Git,
  key: string,
  branch: string,
  makeCommit: (number: number) => Promise<string>,
): Promise<{ number: number; commit: string }> {
  const records = await listPullRecords(git);
  const open = records.filter(r => r.key === key && isOpen(r)).pop();
  let number =
    open?.number ?? records.reduce((max, r) => Math.max(max, r.number), 0) + 1;
  for (let tries = 0; tries < 20; tries++, number++) {
    const commit = await makeCommit(number);
    const record = open
      ? `update ${pullRef(number)} ${commit} ${open.commit}`
      : `create ${pullRef(number)} ${commit}`;
    if (
      await git.updateRefs([record, `update refs/heads/${branch} ${commit}`])
    ) {
      return { number, commit };
    }
    if (open) break;
  }
  throw new Error(
    `gitops: could not record the pull request of "${key}" (another writer raced it)`,
  );
}

/**
 * Closes the open pull requests of `key` (what GitHub does when their branch is deleted): a change found
 * already on the default branch leaves nothing for them to merge. Each is closed at the commit it was
 * read at; a writer that moved one meanwhile wins, and a later publish of the key closes it then.
 */
export async function closePullRecords(git: Git, key: string): Promise<void> {
  const open = (await listPullRecords(git)).filter(
    r => r.key === key && isOpen(r),
  );
  if (!open.length) return;
  await git.updateRefs(
    open.flatMap(r => [
      `verify ${pullRef(r.number)} ${r.commit}`,
      `create ${closedRef(r.number)} ${r.commit}`,
    ]),
  );
}
