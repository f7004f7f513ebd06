import { setImmediate } from 'node:timers/promises';
import type { GitopsChange } from '@infrared-clusters/plugin-infrared-node';
import { gitBlobSha } from '../change';
import { Git } from './git';
import { LooseObjects, objectId, ObjectType } from './objects';
import {
  DIRECTORY,
  entryName,
  FILE,
  findEntry,
  parseTree,
  removeEntry,
  serializeTree,
  setEntry,
  treeEntry,
  TreeEntry,
} from './trees';

/** What a change does in one directory: files written, files deleted, subdirectories changed. */
interface DirectoryChange {
  files: Map<string, string>; // name -> blob id
  deletions: Set<string>;
  directories: Map<string, DirectoryChange>;
}

const emptyChange = (): DirectoryChange => ({
  files: new Map(),
  deletions: new Set(),
  directories: new Map(),
});

/** The directories the change's paths pass through ('' the root), parents first. */
function directoriesOf(paths: string[]): string[] {
  const directories = new Set<string>(['']);
  for (const path of paths) {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      directories.add(segments.slice(0, i).join('/'));
    }
  }
  return [...directories];
}

/**
 * The parsed trees a publisher builds its commits from, kept between publishes: after a merge it lands, it
 * holds the trees of the directories that merge changed, so the next change on top of it rewrites only the
 * trees on its paths, in this process (hashing a 10,000-entry directory is about 0.5 MB of SHA-1), with no
 * git process. A tree it does not hold (the first publish, or another writer moved the default branch) is
 * read with the others the change needs in one `git cat-file --batch`.
 */
export class KeptTrees {
  private trees = new Map<string, TreeEntry[]>();
  /** The trees read or written by the build in progress: the ones kept once it lands. */
  private used = new Set<string>();
  private root?: { commit: string; tree: string };

  constructor(
    private readonly git: Git,
    private readonly objects: LooseObjects,
  ) {}

  /** Whether `head` already has every file of the change with the same content, and none of its deletions. */
  async isApplied(head: string, change: GitopsChange): Promise<boolean> {
    const deletions = change.deletions ?? [];
    const root = await this.load(head, [
      ...Object.keys(change.files),
      ...deletions,
    ]);
    const file = (path: string) => {
      const entry = this.lookup(root, path);
      return typeof entry === 'object' && entry.mode !== DIRECTORY
        ? entry
        : undefined;
    };
    return (
      Object.entries(change.files).every(([path, content]) => {
        const entry = file(path);
        return entry?.mode === FILE && entry.id === gitBlobSha(content);
      }) && deletions.every(path => !file(path))
    );
  }

  /** Writes the change's blobs and the trees on its paths; resolves with the tree of `head` with the change. */
  async buildTree(head: string, change: GitopsChange): Promise<string> {
    this.used = new Set();
    const paths = [...Object.keys(change.files), ...(change.deletions ?? [])];
    const root = await this.load(head, paths);
    const plan = emptyChange();
    const place = (path: string) => {
      const segments = path.split('/').map(entryName);
      let directory = plan;
      for (const segment of segments.slice(0, -1)) {
        if (!directory.directories.has(segment)) {
          directory.directories.set(segment, emptyChange());
        }
        directory = directory.directories.get(segment)!;
      }
      return { directory, name: segments[segments.length - 1] };
    };
    const writes: Array<[ObjectType, Buffer]> = [];
    for (const [path, content] of Object.entries(change.files)) {
      const body = Buffer.from(content, 'utf8');
      writes.push(['blob', body]);
      const { directory, name } = place(path);
      directory.files.set(name, objectId('blob', body));
    }
    for (const path of change.deletions ?? []) {
      const { directory, name } = place(path);
      directory.deletions.add(name);
    }
    const tree =
      this.rewrite(root, plan, writes) ?? this.keepTree([], undefined, writes);
    // hashed above in turn; written now, a few at a time: a small object is written synchronously (see
    // LooseObjects), and a batch of many registrations must not hold the event loop for all of them
    const written: Array<Promise<string>> = [];
    for (let i = 0; i < writes.length; i++) {
      if (i > 0 && i % 16 === 0) await setImmediate();
      written.push(this.objects.write(...writes[i]));
    }
    await Promise.all(written);
    return tree;
  }

  /** The tree built last landed as `commit`: keeps only the trees that build read or wrote. */
  landed(commit: string, tree: string): void {
    this.root = { commit, tree };
    for (const id of this.trees.keys()) {
      if (!this.used.has(id)) this.trees.delete(id);
    }
  }

  /** The tree `id` with `plan` applied, or undefined when nothing is left in it (git keeps no empty tree). */
  private rewrite(
    id: string | undefined,
    plan: DirectoryChange,
    writes: Array<[ObjectType, Buffer]>,
  ): string | undefined {
    const entries = id ? [...this.tree(id)] : [];
    for (const [name, sub] of plan.directories) {
      const at = findEntry(entries, name);
      const existing = at >= 0 ? entries[at] : undefined;
      const current = existing?.mode === DIRECTORY ? existing.id : undefined;
      const written = this.rewrite(current, sub, writes);
      if (written) setEntry(entries, treeEntry(DIRECTORY, name, written));
      else if (current) removeEntry(entries, name);
    }
    for (const [name, blob] of plan.files) {
      setEntry(entries, treeEntry(FILE, name, blob));
    }
    for (const name of plan.deletions) {
      const at = findEntry(entries, name);
      if (at >= 0 && entries[at].mode !== DIRECTORY) entries.splice(at, 1);
    }
    return entries.length ? this.keepTree(entries, id, writes) : undefined;
  }

  /** Keeps the tree of `entries` and adds it to `writes` unless it is `before`, unchanged. */
  private keepTree(
    entries: TreeEntry[],
    before: string | undefined,
    writes: Array<[ObjectType, Buffer]>,
  ): string {
    const body = serializeTree(entries);
    const id = objectId('tree', body);
    if (id !== before) writes.push(['tree', body]);
    this.trees.set(id, entries);
    this.used.add(id);
    return id;
  }

  private tree(id: string): TreeEntry[] {
    this.used.add(id);
    return this.trees.get(id)!;
  }

  /**
   * The entry at `path` under the tree `root`: undefined when there is none, 'unknown' when a tree on the
   * way is not kept.
   */
  private lookup(
    root: string,
    path: string,
  ): TreeEntry | undefined | 'unknown' {
    let entries = this.trees.get(root);
    let entry: TreeEntry | undefined;
    for (const segment of path.split('/').map(entryName)) {
      if (entry && entry.mode !== DIRECTORY) return undefined;
      if (!entries) return 'unknown';
      const at = findEntry(entries, segment);
      if (at < 0) return undefined;
      entry = entries[at];
      entries = entry.mode === DIRECTORY ? this.trees.get(entry.id) : undefined;
    }
    return entry;
  }

  /** Whether every directory of `directories` that exists under `root` is kept. */
  private holds(root: string, directories: string[]): boolean {
    if (!this.trees.has(root)) return false;
    return directories.every(directory => {
      if (!directory) return true;
      const entry = this.lookup(root, directory);
      if (entry === 'unknown') return false;
      return !entry || entry.mode !== DIRECTORY || this.trees.has(entry.id);
    });
  }

  /** The tree of `head`, with the trees of the paths' directories kept (read when they are not). */
  private async load(head: string, paths: string[]): Promise<string> {
    const directories = directoriesOf(paths);
    if (this.root?.commit === head && this.holds(this.root.tree, directories)) {
      return this.root.tree;
    }
    const objects = await this.git.readObjects(
      directories.map(d => (d ? `${head}:${d}` : `${head}^{tree}`)),
    );
    const [root] = objects;
    if (!root || root.type !== 'tree') {
      throw new Error(`gitops: ${head} has no tree`);
    }
    this.trees = new Map(); // all a change needs was read: what was kept is of another head
    for (const object of objects) {
      if (object?.type === 'tree') {
        this.trees.set(object.id, parseTree(object.body));
      }
    }
    this.root = { commit: head, tree: root.id };
    return root.id;
  }
}
