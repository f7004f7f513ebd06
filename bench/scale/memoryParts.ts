import fs from 'node:fs';

/** Where this process's memory is, in bytes: V8's heap, Buffers, and the resident mappings by kind. */
export interface MemoryParts {
  rss: number;
  /** V8's heap as committed (pages it holds, used or not) and in use. */
  heapTotal: number;
  heapUsed: number;
  /** ArrayBuffers and Buffers outside V8's heap (malloc'd backing stores). */
  arrayBuffers: number;
  /** Resident in the main malloc arena ([heap], grown by brk). */
  brkHeap: number;
  /** Resident in anonymous mappings: V8's pages, other malloc arenas, large mallocs. */
  anonymous: number;
  /** Resident in mapped files: the node binary, shared libraries. */
  files: number;
}

/** The parts of `/proc/self/smaps` by kind of mapping (Linux). */
function residentByMapping() {
  const parts = { brkHeap: 0, anonymous: 0, files: 0 };
  let kind: keyof typeof parts = 'anonymous';
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header) {
      const [, inode, name] = header;
      if (name === '[heap]') kind = 'brkHeap';
      else if (inode !== '0' || name.startsWith('/')) kind = 'files';
      else kind = 'anonymous';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) parts[kind] += Number(rss[1]) * 1024;
  }
  return parts;
}

export function memoryParts(): MemoryParts {
  const usage = process.memoryUsage();
  return {
    rss: usage.rss,
    heapTotal: usage.heapTotal,
    heapUsed: usage.heapUsed,
    arrayBuffers: usage.arrayBuffers,
    ...residentByMapping(),
  };
}

const mb = (bytes: number) =>
  `${bytes < 0 ? '' : '+'}${Math.round(bytes / 1024 / 1024)}`;

/** Each part's growth from `before` to `after`, in MB. */
export function memoryGrowth(before: MemoryParts, after: MemoryParts): string {
  const keys = Object.keys(before) as (keyof MemoryParts)[];
  return keys.map(key => `${key} ${mb(after[key] - before[key])}`).join(', ');
}
