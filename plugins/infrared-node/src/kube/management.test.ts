import fs from 'node:fs';
import path from 'node:path';
import { findRepoRoot } from './management';

describe('findRepoRoot', () => {
  it('is the workspace root above the working directory, where the package runs its tests', () => {
    const root = fs.realpathSync(path.resolve(__dirname, '../../../..'));
    expect(
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
        .workspaces,
    ).toBeTruthy();
    expect(process.cwd()).not.toBe(root);
    expect(findRepoRoot()).toBe(root);
  });
});
