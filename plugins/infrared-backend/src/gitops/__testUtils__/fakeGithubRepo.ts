import { createHash } from 'node:crypto';
import { gitBlobSha } from '../change';

/** A file tree, flat: path -> blob sha. */
export type Tree = Map<string, string>;

export interface FakeCommit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
}

export interface FakePull {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
  mergeCommit?: string;
  /** Approving reviews it has (branch protection counts them). */
  approvals?: number;
  /** The head commit when it was closed or merged: GitHub keeps it after the branch is deleted. */
  headSha?: string;
}

let counter = 0;
const objectId = (kind: string, value: unknown) =>
  createHash('sha1')
    .update(`${kind} ${++counter} ${JSON.stringify(value)}`)
    .digest('hex');

/**
 * The state behind the fake GitHub: git objects, refs and pull requests of one repository, with the rules
 * the publisher depends on (fast-forward checks, one open pull request per head, merge conflicts).
 */
export class FakeGithubRepo {
  readonly blobs = new Map<string, string>();
  readonly trees = new Map<string, Tree>();
  readonly commits = new Map<string, FakeCommit>();
  readonly refs = new Map<string, string>();
  readonly pulls: FakePull[] = [];
  /** Branch protection of the default branch: approving reviews a pull request needs to be merged. */
  requiredApprovals = 0;

  constructor(
    readonly owner = 'acme',
    readonly name = 'gitops',
    readonly defaultBranch = 'main',
  ) {
    this.refs.set(
      `heads/${defaultBranch}`,
      this.commit({ 'README.md': '# gitops\n' }, [], 'Initial commit'),
    );
  }

  /** Writes a tree with these files on top of `parents[0]` and returns the new commit. */
  commit(
    files: Record<string, string | null>,
    parents: string[],
    message: string,
  ): string {
    const base = parents[0] ? this.treeOf(parents[0]) : new Map();
    const tree = new Map(base);
    for (const [path, content] of Object.entries(files)) {
      if (content === null) tree.delete(path);
      else tree.set(path, this.blob(content));
    }
    return this.commitTree(this.storeTree(tree), parents, message);
  }

  /** What someone else pushing to a branch does. */
  push(
    branch: string,
    files: Record<string, string | null>,
    message = 'Someone else',
  ) {
    const head = this.refs.get(`heads/${branch}`)!;
    this.refs.set(`heads/${branch}`, this.commit(files, [head], message));
  }

  blob(content: string): string {
    const sha = gitBlobSha(content);
    this.blobs.set(sha, content);
    return sha;
  }

  /** Content-addressed, as in git: the same files give the same tree sha. */
  storeTree(tree: Tree): string {
    const sha = createHash('sha1')
      .update(`tree ${JSON.stringify([...tree.entries()].sort())}`)
      .digest('hex');
    this.trees.set(sha, tree);
    return sha;
  }

  commitTree(tree: string, parents: string[], message: string): string {
    const sha = objectId('commit', { tree, parents, message });
    this.commits.set(sha, { sha, tree, parents, message });
    return sha;
  }

  treeOf(commit: string): Tree {
    return this.trees.get(this.commits.get(commit)!.tree)!;
  }

  /** A branch name or a commit sha -> commit sha. */
  resolve(ref: string): string | undefined {
    return (
      this.refs.get(`heads/${ref}`) ?? (this.commits.has(ref) ? ref : undefined)
    );
  }

  /** The content of a file on a branch, for assertions. */
  file(path: string, branch = this.defaultBranch): string | undefined {
    const sha = this.treeOf(this.resolve(branch)!).get(path);
    return sha === undefined ? undefined : this.blobs.get(sha);
  }

  isAncestor(ancestor: string, commit: string): boolean {
    const queue = [commit];
    while (queue.length) {
      const sha = queue.pop()!;
      if (sha === ancestor) return true;
      queue.push(...(this.commits.get(sha)?.parents ?? []));
    }
    return false;
  }

  /** Paths whose blob differs between two trees. */
  changedPaths(from: Tree, to: Tree): Set<string> {
    const paths = new Set([...from.keys(), ...to.keys()]);
    return new Set([...paths].filter(p => from.get(p) !== to.get(p)));
  }

  /** The paths both the pull request and its base changed since their common point (a merge conflict). */
  conflicts(pull: FakePull): string[] {
    const baseHead = this.refs.get(`heads/${pull.base}`)!;
    const headSha = this.refs.get(`heads/${pull.head}`)!;
    const forkPoint = this.commits.get(headSha)!.parents[0];
    const prChanges = this.changedPaths(
      this.treeOf(forkPoint),
      this.treeOf(headSha),
    );
    const baseChanges = this.changedPaths(
      this.treeOf(forkPoint),
      this.treeOf(baseHead),
    );
    return [...prChanges].filter(p => baseChanges.has(p));
  }

  /** The approving reviews the pull request still lacks under the branch protection. */
  missingApprovals(pull: FakePull): number {
    return Math.max(0, this.requiredApprovals - (pull.approvals ?? 0));
  }

  /** What a reviewer approving the pull request does. */
  approve(number: number) {
    const pull = this.pulls.find(p => p.number === number)!;
    pull.approvals = (pull.approvals ?? 0) + 1;
  }

  /** What a human with the rights to bypass review does with the merge button. */
  mergeByHuman(number: number, method: 'merge' | 'squash' = 'merge') {
    const pull = this.pulls.find(p => p.number === number)!;
    const result = this.merge(pull, method);
    if (!result.sha) throw new Error(result.conflict);
    return result.sha;
  }

  /** What a human closing the pull request without merging it does (the branch stays). */
  closeByHuman(number: number) {
    const pull = this.pulls.find(p => p.number === number)!;
    pull.headSha = this.refs.get(`heads/${pull.head}`);
    pull.state = 'closed';
  }

  /**
   * Merges an open pull request like GitHub: conflict when the base moved and touched the same paths as the
   * pull request since their common point. Returns the new base commit or a reason it cannot merge.
   */
  merge(
    pull: FakePull,
    method: 'merge' | 'squash' | 'rebase',
  ): { sha?: string; conflict?: string } {
    const baseRef = `heads/${pull.base}`;
    const baseHead = this.refs.get(baseRef)!;
    const headSha = this.refs.get(`heads/${pull.head}`)!;
    const forkPoint = this.commits.get(headSha)!.parents[0];
    const prChanges = this.changedPaths(
      this.treeOf(forkPoint),
      this.treeOf(headSha),
    );
    const overlap = this.conflicts(pull);
    if (overlap.length)
      return { conflict: `Merge conflict in ${overlap.join(', ')}` };
    const tree = new Map(this.treeOf(baseHead));
    for (const path of prChanges) {
      const sha = this.treeOf(headSha).get(path);
      if (sha === undefined) tree.delete(path);
      else tree.set(path, sha);
    }
    const parents = method === 'merge' ? [baseHead, headSha] : [baseHead];
    const message =
      method === 'merge'
        ? `Merge pull request #${pull.number} from ${this.owner}/${pull.head}`
        : pull.title;
    const sha = this.commitTree(this.storeTree(tree), parents, message);
    this.refs.set(baseRef, sha);
    Object.assign(pull, {
      state: 'closed',
      merged: true,
      mergeCommit: sha,
      headSha,
    });
    return { sha };
  }
}
