/*
 * The local gitops publish alone (run through run.js). For each size N it builds, once, a bare repository
 * holding N registrations (the files registrationFiles() writes, one commit made by `git fast-import`) in a
 * cache directory outside the checkout, copies it, and times `--runs` lone publishes of one more
 * registration each with LocalGitPublisher: the first (a new publisher, nothing kept) apart, then the rest
 * (p50/p95), with `uptime` beside them. It checks the copy with `git fsck --strict` at the end.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { registrationFiles } from '../../plugins/infrared-backend/src/gitops/files/registration';
import { LocalGitPublisher } from '../../plugins/infrared-backend/src/gitops/local/LocalGitPublisher';

const MANAGEMENT = 'infrared-mgmt';
const CACHE = join(homedir(), '.cache', 'infrared-bench', 'gitops-publish');

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
}

const files = (name: string) =>
  registrationFiles({
    clusterName: name,
    managementCluster: MANAGEMENT,
    repoUrl: 'git://127.0.0.1:9418/gitops.git',
    branch: 'main',
  });

/** A fast-import stream of one commit on main holding `count` registrations (and the README). */
function importStream(count: number): Buffer {
  const parts: string[] = [];
  const file = (path: string, content: string) => {
    const data = Buffer.from(content);
    parts.push(`M 100644 inline ${path}\ndata ${data.length}\n${content}\n`);
  };
  parts.push(
    'commit refs/heads/main\ncommitter Bench <bench@localhost> 1764633600 +0000\n',
  );
  const message = `${count} registrations\n`;
  parts.push(`data ${message.length}\n${message}`);
  file('README.md', '# Gitops repository\n');
  for (let i = 0; i < count; i++) {
    for (const [path, content] of Object.entries(files(`bench-${i}`))) {
      file(path, content);
    }
  }
  return Buffer.from(parts.join(''));
}

function cachedRepository(count: number): string {
  const path = join(CACHE, `registered-${count}.git`);
  if (!existsSync(join(path, 'refs'))) {
    mkdirSync(CACHE, { recursive: true });
    rmSync(path, { recursive: true, force: true });
    execFileSync('git', [
      'init',
      '-q',
      '--bare',
      '--initial-branch=main',
      path,
    ]);
    execFileSync('git', [`--git-dir=${path}`, 'fast-import', '--quiet'], {
      input: importStream(count),
      maxBuffer: 1 << 30,
    });
  }
  return path;
}

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

function percentile(sorted: number[], p: number): number {
  return sorted[
    Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  ];
}

/** Publishes the registration of `name`, or with `batch` > 1 one change of that many (as a batch of BatchingPublisher). */
async function publishOne(
  publisher: LocalGitPublisher,
  name: string,
  batch: number,
) {
  const names = Array.from({ length: batch }, (_, i) =>
    batch > 1 ? `${name}-${i}` : name,
  );
  const started = process.hrtime.bigint();
  await publisher.publish({
    key: `cluster-${name}`,
    title: `Register cluster ${name}`,
    body: `Adds ${names.join(', ')}`,
    files: Object.assign({}, ...names.map(files)),
  });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function measure(
  count: number,
  runs: number,
  batch: number,
): Promise<void> {
  const source = cachedRepository(count);
  const dir = mkdtempSync(join(tmpdir(), 'bench-gitops-publish-'));
  try {
    const path = join(dir, 'gitops.git');
    cpSync(source, path, { recursive: true });
    const before = uptime();
    const publisher = new LocalGitPublisher({ path });
    const first = await publishOne(publisher, 'new-0', batch);
    const times: number[] = [];
    for (let i = 1; i <= runs; i++) {
      times.push(await publishOne(publisher, `new-${i}`, batch));
    }
    const sorted = [...times].sort((a, b) => a - b);
    const fsck = spawnSync(
      'git',
      [`--git-dir=${path}`, 'fsck', '--strict', '--no-progress'],
      {
        encoding: 'utf8',
      },
    );
    console.log(
      `${count} registered, ${batch} a publish: first publish ${first.toFixed(
        1,
      )} ms; then ${runs} publishes p50 ${percentile(sorted, 50).toFixed(
        1,
      )} ms, p95 ${percentile(sorted, 95).toFixed(
        1,
      )} ms (min ${sorted[0].toFixed(1)}, max ${sorted[
        sorted.length - 1
      ].toFixed(1)}); fsck --strict ${
        fsck.status === 0 ? 'ok' : `FAILED: ${fsck.stdout}${fsck.stderr}`
      }`,
    );
    console.log(`  uptime before: ${before}`);
    console.log(`  uptime after:  ${uptime()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(): Promise<void> {
  const sizes = option('clusters', '1000,10000').split(',').map(Number);
  const runs = Number(option('runs', '10'));
  const batch = Number(option('batch', '1'));
  for (const count of sizes) {
    await measure(count, runs, batch);
  }
}
