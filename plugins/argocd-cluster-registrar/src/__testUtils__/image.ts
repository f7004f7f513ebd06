/*
 * The package as npm packs it, installed the way the Dockerfile installs it, and the commands run
 * from that install with plain node: what the image would run, without a container engine.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '../../../..');
export const PACKAGE_DIR = path.resolve(__dirname, '../..');
export const DOCKERFILE = path.join(PACKAGE_DIR, 'Dockerfile');

/** The packages the image holds: this one and the three it runs on. */
export const PACKED = [
  'plugins/infrared-common',
  'plugins/infrared-kube',
  'plugins/infrared-registrar',
  'plugins/argocd-cluster-registrar',
];

export interface Dockerfile {
  /** The base image, with ARG defaults substituted. */
  from: string;
  workdir: string;
  /** COPY's destination of the tarballs (the install command's glob reads them there). */
  copyTo: string;
  /** The RUN's `npm install ...` command, as words. */
  install: string[];
  /** ENTRYPOINT, exec form. */
  entrypoint: string[];
}

/** The instructions of a Dockerfile: continuation lines joined, comments dropped. */
function instructions(text: string): Array<[string, string]> {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map(l => l.trim())
    .filter(l => l && !l.startsWith('#'))
    .map(l => {
      const [, op, rest] = /^(\S+)\s+(.*)$/.exec(l)!;
      return [op.toUpperCase(), rest.trim()];
    });
}

/** What the test runs of the Dockerfile (it fails naming what it cannot find). */
export function readDockerfile(file = DOCKERFILE): Dockerfile {
  const args: Record<string, string> = {};
  const found: Partial<Dockerfile> = {};
  for (const [op, rest] of instructions(fs.readFileSync(file, 'utf8'))) {
    if (op === 'ARG') {
      const [name, value = ''] = rest.split('=');
      args[name] = value;
    } else if (op === 'FROM') {
      found.from = rest.replace(/\$\{(\w+)\}/g, (_, n) => args[n] ?? '');
    } else if (op === 'WORKDIR') {
      found.workdir = rest;
    } else if (op === 'COPY' && /\.tgz\s/.test(rest)) {
      found.copyTo = rest.split(/\s+/).at(-1);
    } else if (op === 'RUN' && /\bnpm install\b/.test(rest)) {
      const command = rest.split('&&').find(c => /\bnpm install\b/.test(c))!;
      found.install = command.trim().split(/\s+/);
    } else if (op === 'ENTRYPOINT') {
      found.entrypoint = JSON.parse(rest);
    }
  }
  for (const key of ['from', 'workdir', 'copyTo', 'install', 'entrypoint']) {
    if (!(found as any)[key]) throw new Error(`the Dockerfile has no ${key}`);
  }
  return found as Dockerfile;
}

function must(command: string, args: string[], cwd: string) {
  const res = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: plainEnv(),
    maxBuffer: 64 * 1024 * 1024,
    timeout: 10 * 60_000,
  });
  if (res.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}): exit ${
        res.status ?? res.signal
      }\n${res.stdout}${res.stderr}`,
    );
  }
  return res.stdout;
}

/**
 * The environment of a shell outside the repository: node first on PATH, no NODE_OPTIONS (no
 * TypeScript transform), no in-cluster service account.
 */
export function plainEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  delete env.KUBERNETES_SERVICE_HOST;
  delete env.KUBERNETES_SERVICE_PORT;
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${
    env.PATH ?? ''
  }`;
  return env;
}

/** Builds and packs PACKED as bench/pack does (into a copy: the tree's package.json stay as they are). */
export function packTarballs(workDir: string): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { packAll } = require(path.join(REPO, 'bench', 'pack', 'pack.js'));
  return packAll(PACKED, workDir).map((p: { tarball: string }) => p.tarball);
}

/**
 * Runs the Dockerfile's install in `workdir` (standing for its WORKDIR), its COPY destination glob
 * read as `tarballs`; --prefer-offline, so npm's cache answers first. Serialised with the other npm
 * installs on this machine by /tmp/npm.lock, as bench/pack does.
 */
export function installAsTheImage(
  dockerfile: Dockerfile,
  tarballs: string[],
  workdir: string,
): void {
  fs.mkdirSync(workdir, { recursive: true });
  const [npm, ...args] = dockerfile.install;
  const glob = path.posix.join(dockerfile.copyTo, '*.tgz');
  const words = args.flatMap(a => (a === glob ? tarballs : [a]));
  if (words.length === args.length) {
    throw new Error(`the install command does not read ${glob}`);
  }
  must('flock', ['/tmp/npm.lock', npm, ...words, '--prefer-offline'], workdir);
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` in `cwd`, bounded in time. */
export function run(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => (stdout += d));
    child.stderr.on('data', d => (stderr += d));
    const timer = setTimeout(
      () => child.kill('SIGKILL'),
      opts.timeoutMs ?? 60_000,
    );
    child.on('error', e => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The ENTRYPOINT as the image runs it, with `args` after it: its `node` is this plain node, its
 * relative paths are the install's (the WORKDIR).
 */
export function runEntrypoint(
  dockerfile: Dockerfile,
  workdir: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs?: number,
): Promise<Run> {
  const [program, ...rest] = dockerfile.entrypoint;
  if (program !== 'node') {
    throw new Error(`the ENTRYPOINT runs ${program}, not node`);
  }
  return run(process.execPath, [...rest, ...args], {
    cwd: workdir,
    env,
    timeoutMs,
  });
}
