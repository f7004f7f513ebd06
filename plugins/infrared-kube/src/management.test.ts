import fs from 'node:fs';
import path from 'node:path';
import { findRepoRoot } from './management';

describe('findRepoRoot', () => {
  it('is the workspace root, from the package or the root (npm test runs jest from the root)', () => {
    const root = fs.realpathSync(path.resolve(__dirname, '../../..'));
    expect(
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
        .workspaces,
    ).toBeTruthy();
    expect(findRepoRoot()).toBe(root);
  });
});
