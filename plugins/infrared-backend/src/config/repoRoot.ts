import fs from 'node:fs';
import path from 'node:path';

/**
 * The repository root (the folder whose package.json declares workspaces), which relative paths in
 * config are resolved against; the start folder when there is none.
 */
export function findRepoRoot(start: string = process.cwd()): string {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(
        fs.readFileSync(path.join(dir, 'package.json'), 'utf8'),
      );
      if (pkg.workspaces) return dir;
    } catch {
      // no package.json here
    }
    if (path.dirname(dir) === dir) return path.resolve(start);
  }
}
