/**
 * Starts a Pod's container as a local process, as the node agent runs it: the image's programs
 * first on PATH, a home, tmp and working directory of the Pod's own, and (when the agent runs as
 * root) a mount namespace with the ServiceAccount token at its usual path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContainerSpec, ImageMapping } from './env';
import { LogWriter } from './logs';

export const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const SYSTEM_PATH =
  '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Runs in the Pod's mount namespace: a private /run with the token directory, then the container. */
const MOUNT_SETUP = `set -e
mount -t tmpfs -o size=4m,mode=755 tmpfs /run
mkdir -p ${SA_DIR}
mount --bind "$1" ${SA_DIR}
mount -o remount,bind,ro ${SA_DIR}
shift
exec "$@"`;

/**
 * Spawns `argv` for the container in `podDir` (its log, `serviceaccount`, home, tmp and work
 * directories), writing stdout and stderr to `logFile` in the kubelet's log format; `onExit`
 * gets the exit code (128 + signal when killed) once the process has closed.
 */
export function spawnContainer(opts: {
  container: ContainerSpec;
  mapping: ImageMapping;
  argv: string[];
  env: Record<string, string>;
  podName: string;
  podDir: string;
  logFile: string;
  mountNamespace: boolean;
  onExit: (code: number) => void;
}): ChildProcess {
  const { container, mapping, argv, podDir } = opts;
  for (const d of ['home', 'tmp', 'work'])
    fs.mkdirSync(path.join(podDir, d), { recursive: true });
  const processEnv: Record<string, string> = {
    PATH: [...mapping.path, SYSTEM_PATH].join(':'),
    HOME: path.join(podDir, 'home'),
    TMPDIR: path.join(podDir, 'tmp'),
    HOSTNAME: opts.podName,
    ...mapping.env,
    ...opts.env,
  };
  const cwd =
    container.workingDir && fs.existsSync(container.workingDir)
      ? container.workingDir
      : path.join(podDir, 'work');
  const [exe, ...args] = opts.mountNamespace
    ? [
        'unshare',
        '--mount',
        '--propagation',
        'private',
        '--',
        '/bin/sh',
        '-c',
        MOUNT_SETUP,
        'pod',
        path.join(podDir, 'serviceaccount'),
        ...argv,
      ]
    : argv;
  const writer = new LogWriter(opts.logFile);
  const child = spawn(exe, args, {
    cwd,
    env: processEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  writer.attach(child.stdout!, 'stdout');
  writer.attach(child.stderr!, 'stderr');
  child.on('error', e => {
    writer.write(
      'stderr',
      `node-agent: could not start ${argv[0]}: ${e.message}\n`,
    );
  });
  child.on('close', (code, signal) => {
    writer.close();
    opts.onExit(code ?? 128 + (signal ? os.constants.signals[signal] ?? 9 : 9));
  });
  return child;
}
