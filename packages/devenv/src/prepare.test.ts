import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildSpec, runPrepare } from './prepare';

/** A build script: prints what the real ones print, then makes its output (or fails). */
function spec(dir: string, name: string, body: string): BuildSpec {
  const script = path.join(dir, `build-${name}.sh`);
  fs.writeFileSync(script, `set -e\n${body}\n`);
  const out = path.join(dir, `${name}.bin`);
  return {
    name,
    title: name.toUpperCase(),
    typicalSeconds: 100,
    built: () => fs.existsSync(out),
    script,
    args: [out],
    env: { ...process.env, STATUS: path.join(dir, 'prepare.json') },
  };
}

describe('devenv prepare (runPrepare) with real build scripts', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prepare-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('builds in turn, keeps the status file current, starts what each success allows, and says which failed', async () => {
    const specs = [
      spec(
        dir,
        'tofu',
        [
          'echo "go: downloading github.com/a/b v1.0.0"',
          'echo "devenv-progress: packages 4"',
          'echo github.com/a/b >&2; echo github.com/a/c >&2',
          'sleep 2.2; echo github.com/a/d >&2; sleep 0.5',
          'cp "$STATUS" "$1.midway"',
          'touch "$1"',
        ].join('\n'),
      ),
      spec(dir, 'argocd', 'echo "devenv-progress: packages 9"; exit 3'),
    ];
    const after: string[] = [];
    const statusFile = path.join(dir, 'prepare.json');
    const said: string[] = [];
    const ok = await runPrepare({
      statusFile,
      log: path.join(dir, 'prepare.log'),
      specs,
      afterBuild: async name => {
        after.push(name);
        // what `devenv up` then sees: this one ready, the next still waiting
        const now = JSON.parse(fs.readFileSync(statusFile, 'utf8'));
        expect(now.items.map((i: any) => i.state)).toEqual([
          'ready',
          'waiting',
        ]);
      },
      say: m => said.push(m),
    });
    expect(ok).toBe(false);
    expect(after).toEqual(['tofu']);

    const midway = JSON.parse(
      fs.readFileSync(path.join(dir, 'tofu.bin.midway'), 'utf8'),
    );
    expect(midway.pid).toBe(process.pid);
    expect(midway.items[0]).toMatchObject({
      state: 'building',
      packagesTotal: 4,
      packagesDone: 3,
      percent: 77,
    });
    expect(midway.items[1]).toMatchObject({ state: 'waiting', percent: 0 });
    expect(midway.items[1].secondsLeft).toBeGreaterThan(
      midway.items[0].secondsLeft,
    );

    const final = JSON.parse(fs.readFileSync(statusFile, 'utf8'));
    expect(final.pid).toBeUndefined();
    expect(final.items.map((i: any) => [i.name, i.state, i.percent])).toEqual([
      ['tofu', 'ready', 100],
      ['argocd', 'failed', 0],
    ]);
    expect(final.items[1].error).toBe(
      `the build of ARGOCD failed (exit 3); see ${path.join(
        dir,
        'prepare.log',
      )}`,
    );
    expect(said).toContain('github.com/a/d');
  });

  it('skips what is built already and starts nothing for it', async () => {
    const built = spec(dir, 'tofu', 'exit 9');
    fs.writeFileSync(path.join(dir, 'tofu.bin'), '');
    const after: string[] = [];
    const ok = await runPrepare({
      statusFile: path.join(dir, 'prepare.json'),
      log: path.join(dir, 'prepare.log'),
      specs: [built],
      afterBuild: async name => {
        after.push(name);
      },
      say: () => {},
    });
    expect(ok).toBe(true);
    expect(after).toEqual([]);
  });
});
