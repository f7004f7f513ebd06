/**
 * The processes of a devenv control plane, one function each, in the order `startControlPlane`
 * starts them: etcd, one kube-apiserver per cluster (with its PKI and admin kubeconfig), and
 * kube-controller-manager on the first cluster.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { renderKubeconfig } from '@infrared-clusters/infrared-kube';
import type { Binaries } from './binaries';
import { ensureClusterPki } from './certs';
import { ProcRecord, freePort, startProcess } from './processes';
import { apiserverArgs, waitApiserverReady, waitFor } from './apiserver';
import type { ClusterInfo } from './controlPlane';

const httpOk = (url: string) =>
  new Promise<boolean>(resolve => {
    const req = http.get(url, { timeout: 2000 }, res => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });

/** `n` distinct free ports, `base + i` where that one is free. */
export async function ports(n: number, base?: number): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n) {
    const p = await freePort(base ? base + out.length : undefined);
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** Starts etcd (data under `baseDir/etcd`) on two free ports not in `taken`; resolves once healthy. */
export async function startEtcd(
  bins: Binaries,
  baseDir: string,
  logs: string,
  taken: number[],
  procs: ProcRecord[],
): Promise<string> {
  const [etcdPort, peerPort] = (await ports(2 + taken.length)).filter(
    p => !taken.includes(p),
  );
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const etcd = startProcess(
    'etcd',
    bins.etcd,
    [
      `--data-dir=${path.join(baseDir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=default=${peerUrl}`,
      '--unsafe-no-fsync',
      '--log-level=warn',
    ],
    path.join(logs, 'etcd.log'),
  );
  procs.push(etcd);
  await waitFor('etcd', etcd, 20_000, () => httpOk(`${etcdUrl}/health`));
  return etcdUrl;
}

/**
 * Starts one kube-apiserver per cluster name on its port (PKI and admin kubeconfig under
 * `baseDir/<name>`); resolves with the clusters once every one is ready.
 */
export async function startApiservers(opts: {
  names: string[];
  apiPorts: number[];
  etcdUrl: string;
  bins: Binaries;
  baseDir: string;
  logs: string;
  readyMs: number;
  procs: ProcRecord[];
}): Promise<ClusterInfo[]> {
  const clusters: ClusterInfo[] = [];
  const apiservers: ProcRecord[] = [];
  opts.names.forEach((name, i) => {
    const dir = path.join(opts.baseDir, name);
    const pki = ensureClusterPki(path.join(dir, 'pki'), name);
    const server = `https://127.0.0.1:${opts.apiPorts[i]}`;
    const caData = fs.readFileSync(pki.caCert, 'utf8');
    const kubeconfig = renderKubeconfig(name, {
      server,
      caData,
      certData: fs.readFileSync(pki.adminCert, 'utf8'),
      keyData: fs.readFileSync(pki.adminKey, 'utf8'),
    });
    const kubeconfigPath = path.join(dir, 'admin.kubeconfig');
    fs.writeFileSync(kubeconfigPath, kubeconfig, { mode: 0o600 });
    const args = apiserverArgs(
      name,
      opts.apiPorts[i],
      opts.etcdUrl,
      pki,
      path.join(dir, 'pki'),
    );
    const proc = startProcess(
      `kube-apiserver/${name}`,
      opts.bins.kubeApiserver,
      args,
      path.join(opts.logs, `kube-apiserver-${name}.log`),
    );
    opts.procs.push(proc);
    apiservers.push(proc);
    clusters.push({ name, server, caData, kubeconfig, kubeconfigPath });
  });
  await Promise.all(
    clusters.map((c, i) =>
      waitApiserverReady(c.name, c.kubeconfig, apiservers[i], opts.readyMs),
    ),
  );
  return clusters;
}

/**
 * kube-controller-manager on `cluster` (garbage collector, Job and namespace controllers), signing
 * with the cluster's CA and service-account key (in the `pki` folder beside its kubeconfig).
 */
export function startControllerManager(
  bin: string,
  cluster: ClusterInfo,
  logs: string,
): ProcRecord {
  const pki = path.join(path.dirname(cluster.kubeconfigPath), 'pki');
  return startProcess(
    'kube-controller-manager',
    bin,
    [
      `--kubeconfig=${cluster.kubeconfigPath}`,
      '--controllers=garbage-collector-controller,job-controller,namespace-controller',
      '--leader-elect=false',
      '--secure-port=0',
      '--use-service-account-credentials=false',
      `--root-ca-file=${path.join(pki, 'ca.crt')}`,
      `--service-account-private-key-file=${path.join(pki, 'sa.key')}`,
    ],
    path.join(logs, 'kube-controller-manager.log'),
  );
}
