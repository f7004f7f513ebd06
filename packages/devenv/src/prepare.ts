/*
 * `devenv prepare`: the demo's slow builds (tofu, Argo CD) in the background, so `npm start` brings
 * the portal up without waiting for them. `devenv up` starts it (detached, recorded in the state,
 * stopped by `devenv down`) when something is missing; it builds each in turn, writes its progress to
 * the status file the portal reads, and after each build runs `devenv up` again, which starts what
 * that build made possible (the node agent for OpenTofu Jobs, Argo CD).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isExe } from './binaries';
import { ARGOCD_ENV } from './argocdDemo';
import {
  ARGOCD_GOTOOLCHAIN,
  ARGOCD_VERSION,
  argocdCacheDir,
} from './argocdBinary';
import { TOFU_VERSION, tofuCacheDir } from './tofu';
import { PrepareItem, applyBuildLine, statusFile } from './prepareStatus';

/** The status file in the demo's data folder (infrared.provisioning.runnerStatusFile). */
export const PREPARE_STATUS_FILE = 'prepare.json';
/** Set in the `devenv prepare` process: its own `devenv up` never starts another. */
const PREPARING_ENV = 'INFRARED_DEVENV_PREPARING';

/** A build `devenv prepare` can run: its script and whether its output is there. */
export interface BuildSpec {
  name: string;
  title: string;
  typicalSeconds: number;
  built(): boolean;
  script: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

// eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
const SCRIPTS = path.resolve(__dirname, '..', 'scripts');

/**
 * What the demo needs built: tofu (the node agent runs OpenTofu Jobs with it) and, unless
 * INFRARED_ARGOCD=off, Argo CD. The typical times are cold builds measured on the 2-core machine.
 */
export function demoBuilds(env = process.env): BuildSpec[] {
  const progress = { ...env, INFRARED_BUILD_PROGRESS: '1' };
  const specs: BuildSpec[] = [
    {
      name: 'tofu',
      title: 'OpenTofu',
      typicalSeconds: 540,
      built: () =>
        !!env.INFRARED_TOFU || isExe(path.join(tofuCacheDir(), 'bin', 'tofu')),
      script: path.join(SCRIPTS, 'build-tofu.sh'),
      args: [tofuCacheDir()],
      env: { ...progress, TOFU_VERSION },
    },
  ];
  if (env[ARGOCD_ENV] !== 'off')
    specs.push({
      name: 'argocd',
      title: 'Argo CD',
      typicalSeconds: 1130,
      built: () =>
        !!env.INFRARED_ARGOCD_BIN ||
        ['argocd', 'git-verify-wrapper.sh'].every(f =>
          isExe(path.join(argocdCacheDir(), 'bin', f)),
        ),
      script: path.join(SCRIPTS, 'build-argocd.sh'),
      args: [argocdCacheDir()],
      env: { ...progress, ARGOCD_VERSION, ARGOCD_GOTOOLCHAIN },
    });
  return specs;
}

export function initialItems(specs: BuildSpec[]): PrepareItem[] {
  return specs.map(s => ({
    name: s.name,
    title: s.title,
    typicalSeconds: s.typicalSeconds,
    state: s.built() ? 'ready' : 'waiting',
  }));
}

export function writeStatus(
  file: string,
  items: PrepareItem[],
  extra: { pid?: number; log?: string } = {},
) {
  const tmp = `${file}.tmp`;
  fs.writeFileSync(
    tmp,
    `${JSON.stringify(statusFile(items, Date.now(), extra), null, 2)}\n`,
  );
  fs.renameSync(tmp, file);
}

/** Runs one build script, feeding each output line to `onLine`; resolves with its exit code. */
function runBuild(
  spec: BuildSpec,
  onLine: (line: string) => void,
  children: Set<number>,
): Promise<number> {
  return new Promise(resolve => {
    const child = spawn('bash', [spec.script, ...spec.args], {
      env: spec.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid) children.add(child.pid);
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        lines.forEach(onLine);
      });
    }
    child.on('error', () => resolve(127));
    child.on('close', code => {
      if (child.pid) children.delete(child.pid);
      resolve(code ?? 1);
    });
  });
}

/**
 * `devenv prepare`: builds what `specs` lacks, one at a time, keeping `statusFile` current (every
 * package compiled, and every 10 s for the estimate), and calls `afterBuild` after each success.
 * The build's own lines go to this process's stdout (its log). SIGTERM stops the build too.
 */
export async function runPrepare(opts: {
  statusFile: string;
  log: string;
  specs?: BuildSpec[];
  afterBuild: (name: string) => Promise<void>;
  say: (m: string) => void;
}): Promise<boolean> {
  const specs = opts.specs ?? demoBuilds();
  const items = initialItems(specs);
  const extra = { pid: process.pid, log: opts.log };
  let lastWrite = 0;
  const write = (force = false) => {
    if (!force && Date.now() - lastWrite < 2000) return;
    lastWrite = Date.now();
    writeStatus(opts.statusFile, items, extra);
  };
  const children = new Set<number>();
  const stop = () => {
    for (const pid of children) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
    process.exit(143);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const timer = setInterval(() => write(true), 10_000);
  /** One build; true when it made its output. */
  const buildOne = async (spec: BuildSpec, i: number): Promise<boolean> => {
    items[i] = { ...items[i], state: 'downloading', startedAt: Date.now() };
    write(true);
    opts.say(`devenv: preparing ${spec.title}`);
    const code = await runBuild(
      spec,
      line => {
        opts.say(line);
        items[i] = applyBuildLine(items[i], line, Date.now());
        write();
      },
      children,
    );
    const built = code === 0 && spec.built();
    items[i] = built
      ? { ...items[i], state: 'ready' }
      : {
          ...items[i],
          state: 'failed',
          error: `the build of ${spec.title} failed (exit ${code}); see ${opts.log}`,
        };
    write(true);
    return built;
  };
  let ok = true;
  try {
    for (const [i, spec] of specs.entries()) {
      if (items[i].state === 'ready') continue;
      if (!(await buildOne(spec, i))) {
        ok = false;
        continue;
      }
      opts.say(`devenv: ${spec.title} is ready; starting what uses it`);
      await opts
        .afterBuild(spec.name)
        .catch(e =>
          opts.say(`devenv: after ${spec.title}: ${(e as Error).message}`),
        );
    }
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    clearInterval(timer);
    writeStatus(opts.statusFile, items, { log: opts.log });
  }
  return ok;
}

/** True in the `devenv prepare` process (its `devenv up` must not start another). */
export const isPreparing = () => process.env[PREPARING_ENV] === '1';
export const preparingEnv = () => ({ ...process.env, [PREPARING_ENV]: '1' });
