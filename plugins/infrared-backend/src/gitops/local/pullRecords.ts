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

const FIELDS = '%(refname)%00%(objectname)%00%(parent)';

/** The pull and closed refs under `patterns`: each line's fields, with `%(contents)` when asked. */
async function readRefs(
  git: Git,
  patterns: string[],
  contents: boolean,
): Promise<string[][]> {
  const out = await git.run([
    'for-each-ref',
    `--format=${FIELDS}${contents ? '%00%(contents)' : ''}%1e`,
    ...patterns,
  ]);
  return out
    .split('\x1e')
    .map(raw => raw.replace(/^\n/, '').split('\0'))
    .filter(([ref]) => ref);
}

function toRecords(entries: string[][]): LocalPullRequest[] {
  const closed = new Set(
    entries
      .filter(([ref]) => ref.startsWith(`${CLOSED}/`))
      .map(([ref]) => Number(ref.slice(CLOSED.length + 1))),
  );
  const records: LocalPullRequest[] = [];
  for (const [ref, commit, parents, message = ''] of entries) {
    if (!ref.startsWith(`${PULLS}/`)) continue;
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

export async function listPullRecords(git: Git): Promise<LocalPullRequest[]> {
  return toRecords(await readRefs(git, [PULLS, CLOSED], true));
}

/**
 * The highest pull request number and the open pull requests, read without the messages of the
 * merged ones: those grow with every batch (a batch's message holds each change's title and body),
 * and a publish needs none of them.
 */
export interface OpenPullRecords {
  last: number;
  open: LocalPullRequest[];
}

export async function openPullRecords(git: Git): Promise<OpenPullRecords> {
  const heads = toRecords(await readRefs(git, [PULLS, CLOSED], false));
  const last = heads.reduce((max, r) => Math.max(max, r.number), 0);
  const refs = heads.filter(isOpen).map(r => pullRef(r.number));
  if (!refs.length) return { last, open: [] };
  // an open one's key is in its message; its closed ref, when it appeared meanwhile, with it
  const open = toRecords(
    await readRefs(
      git,
      [...refs, ...refs.map(r => r.replace(PULLS, CLOSED))],
      true,
    ),
  ).filter(isOpen);
  return { last, open };
}

/**
 * Points the open pull request of `key` (a new number when none is open) and its branch at a new branch
 * commit, in one ref transaction. `makeCommit` builds the commit for a number (the number is in its message).
 * `read` is the records read meanwhile, when the caller started reading them (a taken number is retried).
 */
export async function pushPullBranch(
  git: Git,
  key: string,
  branch: string,
  makeCommit: (number: number) => Promise<string>,
  read: Promise<OpenPullRecords> = openPullRecords(git),
): Promise<{ number: number; commit: string }> {
  const records = await read;
  const open = records.open.filter(r => r.key === key).pop();
  let number = open?.number ?? records.last + 1;
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
  const open = (await openPullRecords(git)).open.filter(r => r.key === key);
  if (!open.length) return;
  await git.updateRefs(
    open.flatMap(r => [
      `verify ${pullRef(r.number)} ${r.commit}`,
      `create ${closedRef(r.number)} ${r.commit}`,
    ]),
  );
}
