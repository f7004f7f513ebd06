import fs from 'node:fs';
import path from 'node:path';
import { PERMISSIONS_README_URL } from './startupCheck';

const readme = fs.readFileSync(
  path.join(__dirname, '..', '..', 'README.md'),
  'utf8',
);

/** The code blocks of the README's Permissions section. */
function permissionsBlocks(): string[] {
  const start = readme.indexOf('\n## Permissions\n');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end);
  return [...section.matchAll(/```\w+\n([\s\S]*?)```/g)].map(m => m[1]);
}

describe('README Permissions section', () => {
  it('is where the startup warning links', () => {
    expect(PERMISSIONS_README_URL.endsWith('#permissions')).toBe(true);
    expect(readme).toContain('\n## Permissions\n');
  });

  it('shows the composed policy exactly as the fixture the tests run', () => {
    const fixture = fs.readFileSync(
      path.join(__dirname, '__fixtures__', 'myPermissionPolicy.ts'),
      'utf8',
    );
    expect(permissionsBlocks()).toContain(fixture);
  });

  it('installs the module by its exported name', () => {
    const block = permissionsBlocks().find(b =>
      b.includes('permissionModuleInfraredPlatformAdmins'),
    );
    expect(block).toContain(
      "import { permissionModuleInfraredPlatformAdmins } from '@infrared-clusters/plugin-infrared-backend';",
    );
    expect(block).toContain(
      'backend.add(permissionModuleInfraredPlatformAdmins);',
    );
    expect(block).not.toContain('allow-all');
  });
});
