import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  parseKubeconfig,
  renderKubeconfig,
} from '@infrared-clusters/infrared-kube';
import {
  openControlPlane,
  type ClusterInfo,
  type ControlPlane,
} from './controlPlane';

/**
 * One devenv cluster at an address of its own: the same API server, credentials and CA, reached
 * through a loopback TCP forwarder. `server`, `kubeconfig` and `kubeconfigPath` name the new address.
 */
export interface ServerAlias extends ClusterInfo {
  /** The cluster's own address, which the forwarder relays to. */
  target: string;
  /** Stops the forwarder, ends its connections and removes the kubeconfig file. */
  close(): Promise<void>;
}

export interface ServerAliasOptions {
  /**
   * The loopback address to listen on. Default 127.0.0.1, which the serving certificate names
   * (whatever the port), so TLS still verifies; 127.0.0.2 gives an address it does not name.
   */
  host?: string;
}

/**
 * Gives a test its own server address for an existing devenv cluster: Argo CD keys clusters by
 * server, so POST /v1/clusters takes one registration per server (issue 23.1), and tests that run
 * at the same time against the shared control plane each register the cluster at an alias of their
 * own. `cp` is a control plane or the path of its state file.
 */
export async function serverAlias(
  cp: ControlPlane | string,
  clusterName: string,
  options: ServerAliasOptions = {},
): Promise<ServerAlias> {
  const plane = typeof cp === 'string' ? openControlPlane(cp) : cp;
  const info = plane.cluster(clusterName);
  const target = new URL(info.server);
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const forwarder = net.createServer(socket => {
    const upstream = net.connect(Number(target.port), target.hostname);
    track(socket);
    track(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    forwarder.once('error', reject);
    forwarder.listen(0, host, () => resolve());
  });
  // a forwarder a test forgot to close does not keep jest's worker alive
  forwarder.unref();
  const { port } = forwarder.address() as net.AddressInfo;
  const server = `https://${host}:${port}`;
  const kubeconfig = renderKubeconfig(clusterName, {
    ...parseKubeconfig(info.kubeconfig),
    server,
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devenv-alias-'));
  const kubeconfigPath = path.join(dir, 'kubeconfig');
  fs.writeFileSync(kubeconfigPath, kubeconfig, { mode: 0o600 });
  let closed: Promise<void> | undefined;
  return {
    ...info,
    server,
    kubeconfig,
    kubeconfigPath,
    target: info.server,
    close() {
      closed ??= new Promise<void>(resolve => {
        forwarder.close(() => resolve());
        sockets.forEach(s => s.destroy());
        fs.rmSync(dir, { recursive: true, force: true });
      });
      return closed;
    },
  };
}
