import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

interface Block {
  file: string;
  line: number;
  script: string;
  timeoutSeconds: number;
}

// The READMEs' runnable commands: a plain Node script (node scripts/readme-commands.js runs them too).
const { allBlocks, runBlock, runnableBlocks } = require(path.join(
  root,
  'scripts',
  'readme-commands.js',
)) as {
  allBlocks: () => Block[];
  runBlock: (
    block: Block,
    cwd?: string,
  ) => {
    ok: boolean;
    status: number | null;
    output: string;
    message: string;
    seconds: number;
  };
  runnableBlocks: (file: string, text: string) => Block[];
};

const fixture = (script: string, marker = '<!-- runnable -->') =>
  ['# A package', '', marker, '```sh', script, '```', ''].join('\n');

describe("the READMEs' runnable commands", () => {
  const blocks = allBlocks();

  it('finds the marked commands (one per README that has some, at least)', () => {
    expect([...new Set(blocks.map(b => b.file))]).toEqual(
      expect.arrayContaining([
        'README.md',
        'plugins/infrared-backend/README.md',
        'plugins/catalog-backend-module-infrared/README.md',
      ]),
    );
  });

  // each marked block, from the repository's root, as a reader runs it
  for (const block of blocks) {
    it(
      `${block.file}:${block.line} runs: ${block.script
        .split('\n')
        .join(' && ')}`,
      () => {
        expect(runBlock(block).message).toBe('');
      },
      (block.timeoutSeconds + 30) * 1000,
    );
  }
});

describe('the runnable-command check itself', () => {
  it('fails, naming the README, the line, the command and its output, when a command names a missing file', () => {
    const [block] = runnableBlocks(
      'plugins/example/README.md',
      fixture('node scripts/no-such-script.js --list'),
    );
    const result = runBlock(block, root);
    expect(result.ok).toBe(false);
    expect(result.message).toContain(
      'plugins/example/README.md:5: the runnable command exited 1',
    );
    expect(result.message).toContain('$ node scripts/no-such-script.js --list');
    expect(result.message).toMatch(/Cannot find module .*no-such-script\.js/);
  });

  it("fails on the backend README's single-test command as it was (src/clusters/plan.test.ts, no such file)", () => {
    const [block] = runnableBlocks(
      'plugins/infrared-backend/README.md',
      fixture(
        [
          'cd plugins/infrared-backend',
          'CI=true npx backstage-cli package test src/clusters/plan.test.ts',
        ].join('\n'),
        '<!-- runnable timeout=120 -->',
      ),
    );
    const result = runBlock(block, root);
    // backstage-cli passes --passWithNoTests, so the command itself exits 0
    expect(result.status).toBe(0);
    expect(result.ok).toBe(false);
    expect(result.message).toContain(
      'plugins/infrared-backend/README.md:5: the runnable command ran no tests',
    );
    expect(result.message).toContain('No tests found');
  }, 150_000);

  it('stops a command at its timeout', () => {
    const [block] = runnableBlocks(
      'README.md',
      fixture('sleep 30', '<!-- runnable timeout=1 -->'),
    );
    const result = runBlock(block, root);
    expect(result.ok).toBe(false);
    expect(result.message).toContain('did not end within 1 s');
    expect(result.seconds).toBeLessThan(10);
  });

  it('takes blank lines between the marker and its block (prettier writes one)', () => {
    expect(
      runnableBlocks('README.md', '<!-- runnable -->\n\n```sh\nls\n```\n'),
    ).toEqual([
      { file: 'README.md', line: 4, script: 'ls', timeoutSeconds: 60 },
    ]);
  });

  it('refuses a marker that is not followed by a sh block (it would check nothing)', () => {
    expect(() =>
      runnableBlocks(
        'README.md',
        '<!-- runnable -->\n\nSome words.\n\n```sh\nls\n```\n',
      ),
    ).toThrow(
      'README.md:1: the runnable marker must be followed by a ```sh block',
    );
    expect(() =>
      runnableBlocks('README.md', '<!-- runnable -->\n```yaml\na: 1\n```\n'),
    ).toThrow(/must be followed/);
    expect(() =>
      runnableBlocks('README.md', '<!-- runnable -->\n```sh\nls\n'),
    ).toThrow('README.md:2: the runnable block is never closed');
  });

  it('reads indented blocks (in a list item) and runs every line of a block', () => {
    const [block] = runnableBlocks(
      'README.md',
      '- item\n\n  <!-- runnable -->\n  ```sh\n  true\n  false\n  ```\n',
    );
    expect(block).toEqual({
      file: 'README.md',
      line: 5,
      script: 'true\nfalse',
      timeoutSeconds: 60,
    });
    expect(runBlock(block, root).message).toContain(
      'README.md:5: the runnable command exited 1',
    );
  });
});
