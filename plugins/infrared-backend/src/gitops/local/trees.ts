/**
 * Tree objects as sorted entry lists. A name is kept as its UTF-8 bytes read as latin1, so comparing two
 * names as JavaScript strings compares their bytes, which is the order git sorts a tree's entries in (a
 * directory as if its name ended with "/"); `git fsck --strict` rejects a tree in any other order.
 */
export interface TreeEntry {
  /** As git writes it: 100644, 100755, 120000, 160000, or 40000 for a directory. */
  mode: string;
  name: string;
  id: string;
  /** The entry's bytes in the tree object: a tree is written as its entries' bytes one after another. */
  raw: Buffer;
}

export const DIRECTORY = '40000';
export const FILE = '100644';

const sortKey = (mode: string, name: string) =>
  mode === DIRECTORY ? `${name}/` : name;

/** A path segment as tree entries hold names. */
export const entryName = (segment: string) =>
  Buffer.from(segment, 'utf8').toString('latin1');

export function treeEntry(mode: string, name: string, id: string): TreeEntry {
  const head = Buffer.from(`${mode} ${name}\0`, 'latin1');
  return { mode, name, id, raw: Buffer.concat([head, Buffer.from(id, 'hex')]) };
}

export function parseTree(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space);
    entries.push({
      mode: body.toString('latin1', at, space),
      name: body.toString('latin1', space + 1, nul),
      id: body.toString('hex', nul + 1, nul + 21),
      raw: body.subarray(at, nul + 21),
    });
    at = nul + 21;
  }
  return entries;
}

/** The tree object's body: its entries' bytes, kept with them (serializing each again took 16 ms at 10,000). */
export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  return Buffer.concat(entries.map(e => e.raw));
}

/** The index of the entry with this sort key, or -(where it would go) - 1. */
function search(entries: readonly TreeEntry[], key: string): number {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = sortKey(entries[middle].mode, entries[middle].name);
    if (found === key) return middle;
    if (found < key) low = middle + 1;
    else high = middle - 1;
  }
  return -low - 1;
}

/** The index of the entry called `name` (a file or a directory), or -1. */
export function findEntry(entries: readonly TreeEntry[], name: string): number {
  const file = search(entries, name);
  if (file >= 0 && entries[file].mode !== DIRECTORY) return file;
  const directory = search(entries, `${name}/`);
  return directory >= 0 && entries[directory].mode === DIRECTORY
    ? directory
    : -1;
}

/** Puts `entry` in place of any entry of the same name, in git's order. */
export function setEntry(entries: TreeEntry[], entry: TreeEntry): void {
  removeEntry(entries, entry.name);
  const at = search(entries, sortKey(entry.mode, entry.name));
  entries.splice(at >= 0 ? at : -at - 1, 0, entry);
}

export function removeEntry(entries: TreeEntry[], name: string): void {
  const at = findEntry(entries, name);
  if (at >= 0) entries.splice(at, 1);
}
