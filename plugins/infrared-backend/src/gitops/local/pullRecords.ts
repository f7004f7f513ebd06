import { Git } from './git';

const PULLS = 'refs/infrared/pulls';

/**
 * A local "pull request". Each one is a ref `refs/infrared/pulls/<number>`, outside the branches, that
 * points at the branch commit while open and at the merge commit once merged; the key travels as a commit
 * trailer. Refs make number allocation atomic across processes (create fails when the ref exists).
 */
export interface LocalPullRequest {
  number: number;
  key: string;
  title: string;
  branch: string;
  merged: boolean;
  commit: string;
}

export function pullRef(number: number): string {
  return `${PULLS}/${number}`;
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

export async function listPullRecords(git: Git): Promise<LocalPullRequest[]> {
  const out = await git.run([
    'for-each-ref',
    '--format=%(refname)%00%(objectname)%00%(parent)%00%(contents)%1e',
    PULLS,
  ]);
  const records: LocalPullRequest[] = [];
  for (const raw of out.split('\x1e')) {
    const [ref, commit, parents, message] = raw.replace(/^\n/, '').split('\0');
    if (!ref || !message) continue;
    const merged = parents.trim().split(' ').length === 2;
    const lines = message.split('\n');
    records.push({
      number: Number(ref.slice(PULLS.length + 1)),
      key: trailer(message, 'Infrared-Key') ?? '',
      branch: trailer(message, 'Infrared-Branch') ?? '',
      title: (merged ? lines[2] : lines[0]) ?? '',
      merged,
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
  const open = records.filter(r => r.key === key && !r.merged).pop();
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
