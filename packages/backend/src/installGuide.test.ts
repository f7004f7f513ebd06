/*
 * docs/install.md as bench/adopt reads it: every marked block is well formed, every file it merges
 * or patches is one @backstage/create-app makes (bench/adopt/create-app-<version>/files.txt, with
 * the changed files as create-app wrote them, *.orig), every patch applies to them in the guide's
 * order, every new file equals the repository's file it copies, and the tarballs the guide names
 * are the packages' current names and versions.
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
const guide = require('../../../bench/adopt/guide');

const fixtures = path.join(
  root,
  'bench',
  'adopt',
  `create-app-${guide.CREATE_APP}`,
);
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('docs/install.md', () => {
  const text = fs.readFileSync(guide.GUIDE, 'utf8');
  const steps: any[] = guide.parseGuide(text);

  it('has runs, merges, patches and a start, the last step', () => {
    for (const action of ['run', 'start', 'merge', 'patch']) {
      expect(steps.map(s => s.action)).toContain(action);
    }
    expect(steps[steps.length - 1].action).toBe('start');
  });

  it('is written for the create-app release of this repository’s Backstage', () => {
    expect(text).toContain(`@backstage/create-app@${guide.CREATE_APP}`);
    const app = readJson(path.join(fixtures, 'backstage.json.orig'));
    expect(app.version).toBe(
      readJson(path.join(root, 'backstage.json')).version,
    );
    expect(text).toContain(`Backstage ${app.version}`);
  });

  it('changes only files create-app makes, and its patches and merges apply in order', () => {
    const made = fs
      .readFileSync(path.join(fixtures, 'files.txt'), 'utf8')
      .split('\n');
    const files = new Map<string, string>();
    const problems: string[] = [];
    for (const step of steps) {
      const at = `docs/install.md:${step.line}`;
      if (step.action === 'create') {
        if (made.includes(step.file))
          problems.push(`${at}: ${step.file} exists`);
        files.set(step.file, step.body);
      } else if (step.action === 'merge' || step.action === 'patch') {
        if (!files.has(step.file) && !made.includes(step.file)) {
          problems.push(`${at}: create-app makes no ${step.file}`);
          continue;
        }
        const source =
          files.get(step.file) ??
          fs.readFileSync(path.join(fixtures, `${step.file}.orig`), 'utf8');
        files.set(
          step.file,
          step.action === 'patch'
            ? guide.applyPatch(source, step)
            : guide.applyMerge(source, step),
        );
      }
    }
    expect(problems).toEqual([]);
    // the backend imports only packages the guide adds to it, and no allow-all policy
    const backend = files.get('packages/backend/src/index.ts')!;
    const deps = JSON.parse(
      files.get('packages/backend/package.json')!,
    ).dependencies;
    const imported = [
      ...backend.matchAll(/'(@infrared-clusters\/[^']+)'/g),
    ].map(m => m[1]);
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter(name => !(name in deps))).toEqual([]);
    expect(backend).not.toContain('allow-all-policy');
    expect(files.get('app-config.yaml')).toMatch(/^infrared:$/m);
  });

  it('copies the repository’s files where it says same-as', () => {
    const copies = steps.filter(s => s.action === 'create' && s.sameAs);
    for (const step of copies) {
      expect({ line: step.line, body: step.body }).toEqual({
        line: step.line,
        body: fs.readFileSync(path.join(root, step.sameAs), 'utf8'),
      });
    }
  });

  it('names each package’s tarball by its current name and version', () => {
    const rootMerge = steps.find(
      s => s.action === 'merge' && s.file === 'package.json',
    );
    const resolutions: Record<string, string> = JSON.parse(
      rootMerge.body,
    ).resolutions;
    const packages = fs
      .readdirSync(path.join(root, 'plugins'))
      .map(dir => path.join(root, 'plugins', dir, 'package.json'))
      .filter(file => fs.existsSync(file))
      .map(readJson);
    expect(Object.keys(resolutions)).toHaveLength(9);
    for (const [name, spec] of Object.entries(resolutions)) {
      const pkg = packages.find(p => p.name === name);
      expect({ name, private: pkg ? pkg.private : 'not in plugins/' }).toEqual({
        name,
        private: undefined,
      });
      const tarball = `${name.replace(/^@/, '').replace('/', '-')}-${
        pkg.version
      }.tgz`;
      expect(spec).toBe(`file:./infrared-packages/${tarball}`);
    }
  });
});

describe('bench/adopt/guide.js', () => {
  const parse = (text: string) => () => guide.parseGuide(text);

  it('refuses a marker without a block, an unknown action and a block of the wrong language', () => {
    expect(parse('<!-- adopt: run -->\ntext\n')).toThrow(
      'docs/install.md:1: <!-- adopt: run --> is not followed by a fenced block',
    );
    expect(parse('<!-- adopt: delete x -->\n```sh\nrm x\n```\n')).toThrow(
      'unknown action',
    );
    expect(parse('<!-- adopt: run -->\n```yaml\na: 1\n```\n')).toThrow(
      'a run block must be ```sh, not ```yaml',
    );
    expect(
      parse('<!-- adopt: merge app-config.yaml -->\n```json\n{}\n```\n'),
    ).toThrow('a merge block must be ```yaml');
    expect(
      parse('<!-- adopt: patch ../x.ts -->\n```diff\n a\n+b\n```\n'),
    ).toThrow('is not a path inside the app');
    expect(parse('<!-- adopt: run -->\n```sh\nyarn\n')).toThrow(
      'unclosed block',
    );
    expect(parse('<!-- adopt: patch a.ts -->\n```diff\n+b\n```\n')).toThrow(
      'needs context',
    );
    expect(parse('<!-- adopt: patch a.ts -->\n```diff\nb\n```\n')).toThrow(
      "a diff line must start with ' ', '-' or '+'",
    );
  });

  it('applies a patch only where its lines appear exactly once', () => {
    const [step] = guide.parseGuide(
      '<!-- adopt: patch a.ts -->\n```diff\n a\n-b\n+c\n```\n',
    );
    expect(guide.applyPatch('x\na\nb\ny\n', step)).toBe('x\na\nc\ny\n');
    expect(() => guide.applyPatch('a\nc\n', step)).toThrow('appear nowhere');
    expect(() => guide.applyPatch('a\nb\na\nb\n', step)).toThrow(
      'more than once',
    );
  });

  it('merges objects key by key and replaces lists and values', () => {
    expect(
      guide.deepMerge({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2] }, e: 2 }),
    ).toEqual({
      a: { b: 1, c: [2] },
      d: 1,
      e: 2,
    });
  });
});
