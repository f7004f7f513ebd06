import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const K8S_VERSION = 'v1.37.2';
export const ETCD_VERSION = 'v3.6.16';

export interface Binaries {
  dir: string;
  etcd: string;
  kubeApiserver: string;
  /** Absent when a KUBEBUILDER_ASSETS folder (envtest ships none) is used and the cache has none either. */
  kubeControllerManager?: string;
  /** Seconds spent building now, when a build ran. */
  builtSeconds?: number;
}

/** A folder of devenv's build cache, outside git: $XDG_CACHE_HOME or ~/.cache, then infrared-devenv/<name>. */
export function devenvCache(name: string): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'infrared-devenv', name);
}

export function cacheDir(version = K8S_VERSION): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'infrared-devenv', version);
}

/** Whether a path is an executable file. */
export const isExe = (f: string) => {
  try {
    fs.accessSync(f, fs.constants.X_OK);
    return fs.statSync(f).isFile();
  } catch {
    return false;
  }
};

function fromDir(rawDir: string, kcmFallback?: string): Binaries | undefined {
  const dir = path.resolve(rawDir);
  const etcd = path.join(dir, 'etcd');
  const kubeApiserver = path.join(dir, 'kube-apiserver');
  if (!isExe(etcd) || !isExe(kubeApiserver)) return undefined;
  const kcm = [path.join(dir, 'kube-controller-manager'), kcmFallback].find(
    f => f && isExe(f),
  );
  return { dir, etcd, kubeApiserver, kubeControllerManager: kcm };
}

const hasGo = () =>
  spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;

/** Finds the binaries in INFRARED_KUBE_ASSETS, KUBEBUILDER_ASSETS or the cache; builds them with Go if needed. */
export function ensureBinaries(
  opts: { version?: string; log?: (m: string) => void } = {},
): Binaries {
  const version = opts.version ?? K8S_VERSION;
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const cacheBin = path.join(cacheDir(version), 'bin');
  for (const env of ['INFRARED_KUBE_ASSETS', 'KUBEBUILDER_ASSETS']) {
    const dir = process.env[env];
    if (!dir) continue;
    const found = fromDir(dir, path.join(cacheBin, 'kube-controller-manager'));
    if (found) return found;
    log(`devenv: ${env}=${dir} holds no etcd and kube-apiserver; ignoring it`);
  }
  const cached = fromDir(cacheBin);
  if (cached?.kubeControllerManager) return cached;
  if (!hasGo()) {
    throw new Error(
      `devenv: no Kubernetes control-plane binaries found and Go is not installed. ` +
        `Install Go >= 1.26 (it builds them into ${cacheBin} once), ` +
        `or set KUBEBUILDER_ASSETS to a folder holding etcd and kube-apiserver.`,
    );
  }
  log(
    `devenv: building etcd ${ETCD_VERSION} and Kubernetes ${version} into ${cacheBin} (cold: 10-20 min)`,
  );
  // eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
  const script = path.resolve(__dirname, '..', 'scripts', 'build-binaries.sh');
  const started = Date.now();
  const res = spawnSync('bash', [script, cacheDir(version)], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, K8S_VERSION: version, ETCD_VERSION },
  });
  if (res.status !== 0)
    throw new Error(
      `devenv: building the binaries failed (exit ${res.status}); see the output above`,
    );
  const built = fromDir(cacheBin);
  if (!built)
    throw new Error(
      `devenv: the build finished but ${cacheBin} lacks the binaries`,
    );
  return { ...built, builtSeconds: Math.round((Date.now() - started) / 1000) };
}
