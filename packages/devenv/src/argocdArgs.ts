import path from 'node:path';
import type { ArgoCdBinaries } from './argocdBinary';

/** The ports of one Argo CD, all on 127.0.0.1 (but see ctlMetrics). */
export interface ArgoCdPorts {
  redisPort: number;
  repoPort: number;
  repoMetrics: number;
  apiPort: number;
  apiMetrics: number;
  /** argocd-application-controller's metrics and /healthz: Argo CD binds it on 0.0.0.0, no flag changes that. */
  ctlMetrics: number;
}

/** The command lines of the three Argo CD components, as their Deployments in manifests/ set them, on loopback. */
export function componentArgs(
  p: ArgoCdPorts,
  kubeconfigPath: string,
  namespace: string,
  resyncSeconds: number,
): {
  repoServer: string[];
  applicationController: string[];
  server: string[];
} {
  const logging = ['--loglevel', 'info', '--logformat', 'text'];
  const kube = ['--kubeconfig', kubeconfigPath, '--namespace', namespace];
  const backends = [
    '--repo-server',
    `127.0.0.1:${p.repoPort}`,
    '--repo-server-plaintext',
    '--redis',
    `127.0.0.1:${p.redisPort}`,
  ];
  return {
    // the repo-server has no --kubeconfig: it reads KUBECONFIG (repoServerEnv)
    repoServer: [
      ...logging,
      ...['--address', '127.0.0.1', '--port', String(p.repoPort)],
      ...[
        '--metrics-address',
        '127.0.0.1',
        '--metrics-port',
        String(p.repoMetrics),
      ],
      ...['--disable-tls', '--client-ca-path', ''],
      ...['--redis', `127.0.0.1:${p.redisPort}`],
      // A periodic refresh asks for the branch's commit as cached here (default 3 min): as long as the
      // resync, a merge is seen at the next resync instead of up to 3 min later (bench/argocd).
      ...['--revision-cache-expiration', `${resyncSeconds}s`],
    ],
    applicationController: [
      ...logging,
      ...kube,
      ...backends,
      ...['--metrics-port', String(p.ctlMetrics)],
      ...['--status-processors', '2', '--operation-processors', '2'],
      // no random delay (default up to 60 s) on top of each periodic refresh
      ...['--app-resync', String(resyncSeconds), '--app-resync-jitter', '0'],
    ],
    server: [
      ...logging,
      ...kube,
      ...backends,
      '--insecure',
      ...['--address', '127.0.0.1', '--port', String(p.apiPort)],
      ...['--metrics-port', String(p.apiMetrics)],
    ],
  };
}

/**
 * The repo-server's environment: its cluster from KUBECONFIG, GPG off, and PATH starting with the
 * folder holding `argocd` (git's askpass) and the helper scripts Argo CD's image puts on PATH
 * (git-verify-wrapper.sh, gpg-wrapper.sh); its sockets and data folders under `dir`.
 */
export function repoServerEnv(
  bins: ArgoCdBinaries,
  kubeconfigPath: string,
  dir: string,
): NodeJS.ProcessEnv {
  return {
    KUBECONFIG: kubeconfigPath,
    ARGOCD_GPG_ENABLED: 'false',
    PATH: `${bins.dir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    ARGOCD_ASK_PASS_SOCK: path.join(dir, 'ask-pass.sock'),
    ARGOCD_SSH_DATA_PATH: path.join(dir, 'ssh'),
    ARGOCD_TLS_DATA_PATH: path.join(dir, 'tls'),
    ARGOCD_GNUPGHOME: path.join(dir, 'gpg'),
  };
}
