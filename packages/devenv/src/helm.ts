import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { devenvCache, isExe } from './binaries';

/** Helm's version devenv builds (the 3.x line, whose k8s.io/client-go serves Kubernetes 1.37). */
export const HELM_VERSION = 'v3.22.0';

export function helmCacheDir(version = HELM_VERSION): string {
  return devenvCache(`helm-${version}`);
}

/**
 * The `helm` binary: INFRARED_HELM when set, else the cache, else built once from the Go module
 * helm.sh/helm/v3 (scripts/build-helm.sh; no Debian package exists). Fails at once, saying what to
 * install, when it must be built and Go is missing.
 */
export function ensureHelm(
  opts: { version?: string; log?: (m: string) => void } = {},
): { bin: string; builtSeconds?: number } {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const version = opts.version ?? HELM_VERSION;
  const fromEnv = process.env.INFRARED_HELM;
  if (fromEnv) {
    if (isExe(fromEnv)) return { bin: path.resolve(fromEnv) };
    throw new Error(
      `devenv: INFRARED_HELM=${fromEnv} is not an executable file`,
    );
  }
  const dir = helmCacheDir(version);
  const bin = path.join(dir, 'bin', 'helm');
  if (isExe(bin)) return { bin };
  if (
    spawnSync('go', ['version'], { stdio: 'ignore', env: process.env })
      .status !== 0
  ) {
    throw new Error(
      `devenv: helm is not built and Go is not installed. Install Go >= 1.26 (it builds helm ${version} into ${bin} once, about 3 minutes cold on 2 cores), or set INFRARED_HELM to a helm binary.`,
    );
  }
  log(`devenv: building helm ${version} into ${bin} (cold: about 3 min)`);
  // eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
  const script = path.resolve(__dirname, '..', 'scripts', 'build-helm.sh');
  const started = Date.now();
  const res = spawnSync('bash', [script, dir], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, HELM_VERSION: version },
  });
  if (res.status !== 0 || !isExe(bin)) {
    throw new Error(
      `devenv: building helm failed (exit ${res.status}); see the output above`,
    );
  }
  return { bin, builtSeconds: Math.round((Date.now() - started) / 1000) };
}
