import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

// The tool behind npm test's 'packages' and 'api-reports' checks (a plain Node script).
const { publishablePackages, packageProblems } = require(path.join(
  root,
  'scripts',
  'publishable.js',
)) as {
  publishablePackages: (root?: string) => string[];
  packageProblems: (dir: string, root?: string) => string[];
};

function writeJson(file: string, value: unknown) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
}

describe('scripts/publishable.js', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'publishable-'));
    writeJson(path.join(scratch, 'package.json'), {
      repository: { type: 'git', url: 'https://example.invalid/repo' },
    });
  });
  afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it('takes every package under plugins/ that is not private, and only those', () => {
    writeJson(path.join(scratch, 'plugins', 'kept', 'package.json'), {});
    writeJson(path.join(scratch, 'plugins', 'hidden', 'package.json'), {
      private: true,
    });
    fs.mkdirSync(path.join(scratch, 'plugins', 'no-manifest'));
    expect(publishablePackages(scratch)).toEqual(['plugins/kept']);
  });

  it('names each field a package lacks for npm, and a workspace range of "*"', () => {
    writeJson(path.join(scratch, 'plugins', 'x', 'package.json'), {
      name: '@internal/plugin-x',
      version: '0.1.0',
      main: 'dist/index.cjs.js',
      types: 'src/index.ts',
      backstage: { role: 'backend-plugin' },
      dependencies: {
        '@infrared-clusters/plugin-infrared-common': '*',
        '@internal/devenv': '*',
      },
    });
    expect(packageProblems('plugins/x', scratch)).toEqual([
      'name is not under @infrared-clusters/',
      'no description',
      'license is not Apache-2.0',
      'publishConfig.access is not public',
      'publishConfig.main is not dist/index.cjs.js',
      'publishConfig.types is not dist/index.d.ts',
      'repository is not https://example.invalid/repo directory plugins/x',
      'files does not list dist',
      'scripts.prepack is not "backstage-cli package prepack"',
      'scripts.postpack is not "backstage-cli package postpack && node ../../scripts/prepack-check.js --packed"',
      'dependency @infrared-clusters/plugin-infrared-common has range "*" (use ^<its version>)',
      'depends on the private @internal/devenv',
      'main is not src/index.ts',
    ]);
  });

  it("finds nothing missing in this repository's publishable packages", () => {
    const dirs = publishablePackages();
    expect(dirs).toEqual(
      expect.arrayContaining([
        'plugins/infrared',
        'plugins/infrared-backend',
        'plugins/infrared-common',
        'plugins/infrared-kube',
        'plugins/infrared-node',
        'plugins/infrared-registrar',
      ]),
    );
    for (const dir of dirs)
      expect([dir, packageProblems(dir)]).toEqual([dir, []]);
  });
});
