import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

// The postpack's last step (a plain Node script): dist/ must be built from the current sources.
const { distEntryFiles, distProblems } = require(path.join(
  root,
  'scripts',
  'prepack-check.js',
)) as {
  distEntryFiles: (pkg: unknown) => string[];
  distProblems: (dir: string) => string[];
};

const PACKAGE = 'plugins/scaffolder-backend-module-infrared';

/**
 * A copy of the repository's skeleton with one publishable package as committed (package.json,
 * README, src/) and no dist/: what a fresh clone has before any build. node_modules is the
 * repository's, so the package's prepack finds backstage-cli as it does in the workspace.
 */
function scratchCopy(scratch: string): string {
  for (const file of ['package.json', 'tsconfig.json']) {
    fs.copyFileSync(path.join(root, file), path.join(scratch, file));
  }
  fs.mkdirSync(path.join(scratch, 'scripts'));
  fs.copyFileSync(
    path.join(root, 'scripts', 'prepack-check.js'),
    path.join(scratch, 'scripts', 'prepack-check.js'),
  );
  fs.symlinkSync(
    path.join(root, 'node_modules'),
    path.join(scratch, 'node_modules'),
  );
  const dir = path.join(scratch, PACKAGE);
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of ['package.json', 'README.md', 'src']) {
    fs.cpSync(path.join(root, PACKAGE, entry), path.join(dir, entry), {
      recursive: true,
    });
  }
  return dir;
}

function npmPackDryRun(dir: string) {
  const result = spawnSync('npm', ['pack', '--dry-run', '--json'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  let files: string[] = [];
  try {
    files = JSON.parse(result.stdout)[0].files.map(
      (f: { path: string }) => f.path,
    );
  } catch {
    // no JSON: npm pack stopped
  }
  return { status: result.status, stderr: result.stderr, files };
}

/** Writes every dist/ entry file the package's role needs, then dates them `secondsFromNow`. */
function fakeBuild(dir: string, secondsFromNow: number) {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(dir, 'package.json'), 'utf8'),
  );
  const when = new Date(Date.now() + secondsFromNow * 1000);
  for (const file of distEntryFiles(pkg)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), 'export {};\n');
    fs.utimesSync(path.join(dir, file), when, when);
  }
}

describe('npm pack of a publishable package', () => {
  jest.setTimeout(180_000);
  let scratch: string;
  beforeEach(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-pack-'));
  });
  afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it('leaves no tarball without dist/ (the check removes what npm wrote) and fails', () => {
    const dir = scratchCopy(scratch);
    const result = spawnSync('npm', ['pack', '--json'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('dist/index.cjs.js is missing');
    expect(fs.readdirSync(dir).filter(f => f.endsWith('.tgz'))).toEqual([]);
  });

  it('fails without dist/, naming what is missing and the build commands', () => {
    const dir = scratchCopy(scratch);
    const packed = npmPackDryRun(dir);
    // Before the prepack check: exit 0 and a tarball of README.md and package.json only.
    expect(packed.files).toEqual([]);
    expect(packed.status).not.toBe(0);
    expect(packed.stderr).toContain('dist/index.cjs.js is missing');
    expect(packed.stderr).toContain(
      `npx tsc && (cd ${PACKAGE} && npx backstage-cli package build)`,
    );
    // Backstage's postpack put package.json back before the check failed
    expect(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(
      fs.readFileSync(path.join(root, PACKAGE, 'package.json'), 'utf8'),
    );
  });

  it('fails when dist/ is older than a source file', () => {
    const dir = scratchCopy(scratch);
    fakeBuild(dir, -3600);
    expect(distProblems(dir)).toEqual([
      expect.stringMatching(/^dist\/index\.d\.ts is older than src\//),
      expect.stringMatching(/^dist\/index\.cjs\.js is older than src\//),
    ]);
    expect(npmPackDryRun(dir).status).not.toBe(0);
  });

  it('packs dist/ once it is built from the current sources', () => {
    const dir = scratchCopy(scratch);
    fakeBuild(dir, 60);
    expect(distProblems(dir)).toEqual([]);
    const packed = npmPackDryRun(dir);
    expect([packed.status, packed.stderr]).toEqual([0, expect.anything()]);
    expect(packed.files).toEqual(
      expect.arrayContaining([
        'dist/index.cjs.js',
        'dist/index.d.ts',
        'package.json',
      ]),
    );
  });

  it("needs each entry point's files in each output of the role", () => {
    expect(
      distEntryFiles({
        backstage: { role: 'node-library' },
        exports: {
          '.': './src/index.ts',
          './cli': './src/cli.ts',
          './package.json': './package.json',
        },
      }),
    ).toEqual([
      'dist/index.d.ts',
      'dist/index.cjs.js',
      'dist/cli.d.ts',
      'dist/cli.cjs.js',
    ]);
    expect(distEntryFiles({ backstage: { role: 'common-library' } })).toEqual([
      'dist/index.d.ts',
      'dist/index.esm.js',
      'dist/index.cjs.js',
    ]);
  });
});
