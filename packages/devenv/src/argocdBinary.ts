import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { devenvCache, isExe } from './binaries';

/** Argo CD's version devenv builds from Go modules. */
export const ARGOCD_VERSION = 'v3.6.1';
/** argo-cd v3.6 declares `go 1.27.0`: this toolchain builds it (Go fetches it as a module). */
export const ARGOCD_GOTOOLCHAIN = 'go1.27.3';
const ARGOCD_MODULE = 'github.com/argoproj/argo-cd/v3';

export function argocdCacheDir(version = ARGOCD_VERSION): string {
  return devenvCache(`argocd-${version}`);
}

/** What `ensureArgoCd` returns: the binary, its component names, and the helper scripts' folder. */
export interface ArgoCdBinaries {
  /** The folder holding `argocd`, its component symlinks and Argo CD's helper scripts (put first on PATH). */
  dir: string;
  server: string;
  repoServer: string;
  applicationController: string;
  builtSeconds?: number;
}

function binariesIn(dir: string): ArgoCdBinaries | undefined {
  const names = [
    'argocd',
    'argocd-server',
    'argocd-repo-server',
    'argocd-application-controller',
    'git-verify-wrapper.sh',
  ];
  if (!names.every(n => isExe(path.join(dir, n)))) return undefined;
  return {
    dir,
    server: path.join(dir, 'argocd-server'),
    repoServer: path.join(dir, 'argocd-repo-server'),
    applicationController: path.join(dir, 'argocd-application-controller'),
  };
}

/**
 * Argo CD's binaries: INFRARED_ARGOCD_BIN (a folder as the cache's `bin/`) when set, else the
 * cache, else built once from the Go module github.com/argoproj/argo-cd/v3 (scripts/build-argocd.sh:
 * a wrapper module with argo-cd's own replace block, GOTOOLCHAIN go1.27.3; a lock file makes a
 * second caller wait for the first build). Fails at once, saying what to install, when it must be
 * built and Go is missing.
 */
export function ensureArgoCd(
  opts: { version?: string; log?: (m: string) => void } = {},
): ArgoCdBinaries {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const version = opts.version ?? ARGOCD_VERSION;
  const fromEnv = process.env.INFRARED_ARGOCD_BIN;
  if (fromEnv) {
    const found = binariesIn(path.resolve(fromEnv));
    if (found) return found;
    throw new Error(
      `devenv: INFRARED_ARGOCD_BIN=${fromEnv} lacks argocd, its component links or git-verify-wrapper.sh`,
    );
  }
  const dir = argocdCacheDir(version);
  const cached = binariesIn(path.join(dir, 'bin'));
  if (cached) return cached;
  if (
    spawnSync('go', ['version'], { stdio: 'ignore', env: process.env })
      .status !== 0
  ) {
    throw new Error(
      `devenv: Argo CD is not built and Go is not installed. Install Go >= 1.26 (it builds Argo CD ${version} into ${dir} once, about 14 minutes cold on 2 cores), or set INFRARED_ARGOCD_BIN.`,
    );
  }
  log(
    `devenv: building Argo CD ${version} into ${dir}, once (cold: about 14-19 min on 2 cores)`,
  );
  // eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
  const script = path.resolve(__dirname, '..', 'scripts', 'build-argocd.sh');
  const started = Date.now();
  const res = spawnSync('bash', [script, dir], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      ARGOCD_VERSION: version,
      ARGOCD_GOTOOLCHAIN,
    },
  });
  const built = binariesIn(path.join(dir, 'bin'));
  if (res.status !== 0 || !built) {
    throw new Error(
      `devenv: building Argo CD failed (exit ${res.status}); see the output above`,
    );
  }
  return { ...built, builtSeconds: Math.round((Date.now() - started) / 1000) };
}

/**
 * The folder of the module github.com/argoproj/argo-cd/v3 in Go's module cache (downloaded when
 * absent): its `manifests/` hold the CRDs and config devenv applies.
 */
export function argocdModuleDir(version = ARGOCD_VERSION): string {
  const res = spawnSync(
    'go',
    ['mod', 'download', '-json', `${ARGOCD_MODULE}@${version}`],
    {
      encoding: 'utf8',
      cwd: os.tmpdir(),
      env: { ...process.env, GOTOOLCHAIN: ARGOCD_GOTOOLCHAIN, GOFLAGS: '' },
    },
  );
  const dir = res.status === 0 ? JSON.parse(res.stdout).Dir : undefined;
  if (!dir || !fs.existsSync(path.join(dir, 'manifests'))) {
    throw new Error(
      `devenv: could not find ${ARGOCD_MODULE}@${version} in Go's module cache: ${res.stderr}`,
    );
  }
  return dir;
}
