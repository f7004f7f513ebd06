import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { devenvCache, isExe } from './binaries';

/** OpenTofu's version devenv builds: the 1.10 line, as the Job's default image. */
export const TOFU_VERSION = 'v1.10.10';

export function tofuCacheDir(version = TOFU_VERSION): string {
  return devenvCache(`tofu-${version}`);
}

/**
 * The `tofu` binary: INFRARED_TOFU when set, else the cache, else built once from the Go module
 * github.com/opentofu/opentofu (scripts/build-tofu.sh: a wrapper module with opentofu's hcl/v2
 * replace line and godebug lines). Fails at once, saying what to install, when it must be built
 * and Go is missing.
 */
export function ensureTofu(
  opts: { version?: string; log?: (m: string) => void } = {},
): { bin: string; builtSeconds?: number } {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const fromEnv = process.env.INFRARED_TOFU;
  if (fromEnv) {
    if (isExe(fromEnv)) return { bin: path.resolve(fromEnv) };
    throw new Error(
      `devenv: INFRARED_TOFU=${fromEnv} is not an executable file`,
    );
  }
  const dir = tofuCacheDir(opts.version);
  const bin = path.join(dir, 'bin', 'tofu');
  if (isExe(bin)) return { bin };
  if (
    spawnSync('go', ['version'], { stdio: 'ignore', env: process.env })
      .status !== 0
  ) {
    throw new Error(
      `devenv: tofu is not built and Go is not installed. Install Go >= 1.26 (it builds tofu ${
        opts.version ?? TOFU_VERSION
      } into ${bin} once, about 9 minutes cold on 2 cores), or set INFRARED_TOFU to a tofu binary.`,
    );
  }
  log(
    `devenv: building tofu ${
      opts.version ?? TOFU_VERSION
    } into ${bin} (cold: about 9 min)`,
  );
  // eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
  const script = path.resolve(__dirname, '..', 'scripts', 'build-tofu.sh');
  const started = Date.now();
  const res = spawnSync('bash', [script, dir], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, TOFU_VERSION: opts.version ?? TOFU_VERSION },
  });
  if (res.status !== 0 || !isExe(bin)) {
    throw new Error(
      `devenv: building tofu failed (exit ${res.status}); see the output above`,
    );
  }
  return { bin, builtSeconds: Math.round((Date.now() - started) / 1000) };
}
