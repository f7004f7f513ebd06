/**
 * A node agent for the devenv control plane: what a kubelet does for the Pods it is given, with
 * each container run as a local process.
 *
 * - registers its Node (Ready, InternalIP 127.0.0.1, the kubelet port) and renews its Lease in
 *   kube-node-lease, as a kubelet does;
 * - takes the unscheduled Pods that match its selector (binds them to itself: devenv has no
 *   scheduler) and runs the ones bound to it;
 * - gives each container what a kubelet gives: its env and envFrom (Secrets, ConfigMaps, fieldRefs),
 *   the Kubernetes service variables (the API server's host and port), and its ServiceAccount's
 *   token from the TokenRequest API (bound to the Pod) with the cluster CA and namespace at
 *   /var/run/secrets/kubernetes.io/serviceaccount, in a mount namespace of its own (so needs root);
 * - runs an image as the local programs it is mapped to (`opentofu` -> the tofu built by devenv);
 * - reports the Pod's phase, its container's state and exit code, and for
 *   FallbackToLogsOnError the log's tail as the termination message;
 * - serves /containerLogs so that `kubectl logs` and pods/log work through the API server;
 * - on deletion, stops the process and removes the Pod, as a kubelet confirms a graceful delete.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeClient, parseKubeconfig } from '@infrared-clusters/infrared-kube';
import {
  containerArgv,
  containerEnv,
  ContainerConfigError,
  kubernetesServiceEnv,
  mapImage,
  type ImageMapping,
  type PodLike,
} from './env';
import { fallbackMessage, LogWriter, parseLog } from './logs';
import { startKubeletServer, type KubeletServer } from './server';

export interface NodeAgentOptions {
  /** An admin kubeconfig of the cluster (the agent binds Pods, writes their status, requests tokens). */
  kubeconfig: string;
  nodeName: string;
  images: ImageMapping[];
  /** Label selector of the unscheduled Pods this node takes; default every one. */
  selector?: string;
  /** Where Pods' logs, tokens and working directories go. */
  dataDir: string;
  /** The kubelet port; 0 (default) takes a free one. */
  port?: number;
  pollMs?: number;
  /** Run each container in a mount namespace with its ServiceAccount token (default: when root). */
  mountNamespace?: boolean;
  log?: (message: string) => void;
}

interface Running {
  pod: PodLike;
  container: string;
  logFile: string;
  startedAt: string;
  child?: ChildProcess;
  exit?: { code: number; finishedAt: string };
  /** The last waiting message reported, so it is written once. */
  waiting?: string;
  deleting?: boolean;
}

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
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

const microTime = () =>
  new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export class NodeAgent {
  private readonly client: KubeClient;
  private readonly caPem: string;
  private readonly apiHost: string;
  private readonly apiPort: number;
  private readonly pods = new Map<string, Running>();
  private server?: KubeletServer;
  private timers: NodeJS.Timeout[] = [];
  private busy = false;
  private stopped = false;
  private readonly mountNs: boolean;
  private readonly log: (m: string) => void;

  constructor(private readonly options: NodeAgentOptions) {
    this.client = KubeClient.fromKubeconfig(options.kubeconfig);
    const access = parseKubeconfig(options.kubeconfig);
    this.caPem = access.caData ?? '';
    const url = new URL(access.server);
    this.apiHost = url.hostname;
    this.apiPort = Number(url.port || 443);
    this.mountNs = options.mountNamespace ?? process.getuid?.() === 0;
    this.log = options.log ?? (m => process.stderr.write(`${m}\n`));
    fs.mkdirSync(path.join(options.dataDir, 'pods'), { recursive: true });
  }

  get port(): number {
    return this.server?.port ?? 0;
  }

  async start(): Promise<void> {
    this.server = await startKubeletServer({
      dataDir: this.options.dataDir,
      port: this.options.port ?? 0,
      findLog: (ns, pod, container) => this.findLog(ns, pod, container),
    });
    await this.registerNode();
    await this.heartbeat();
    this.timers.push(
      setInterval(
        () =>
          this.heartbeat().catch(e =>
            this.log(`node-agent: heartbeat: ${e.message}`),
          ),
        10_000,
      ),
    );
    const poll = () => {
      if (this.busy || this.stopped) return;
      this.busy = true;
      this.sync()
        .catch(e => this.log(`node-agent: ${e.message}`))
        .finally(() => {
          this.busy = false;
        });
    };
    this.timers.push(setInterval(poll, this.options.pollMs ?? 500));
    poll();
    this.log(
      `node-agent: node ${this.options.nodeName} ready, kubelet port ${this.port}`,
    );
  }

  /** Stops every process, the server and the loops; the Node is removed when `removeNode`. */
  async stop(removeNode = false): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    for (const run of this.pods.values()) this.kill(run, 'SIGKILL');
    await this.server?.close();
    if (removeNode) {
      await this.client
        .request('DELETE', `/api/v1/nodes/${this.options.nodeName}`)
        .catch(() => undefined);
    }
  }

  private nodeStatus() {
    const now = new Date().toISOString();
    return {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'devenv node agent is posting ready status',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
      // InternalIP only: the API server tries a Hostname address first, and the node's name
      // resolves nowhere (no DNS lookup may leave this machine)
      addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: this.port } },
      capacity: {
        cpu: String(os.cpus().length),
        memory: `${Math.floor(os.totalmem() / 1024 / 1024)}Mi`,
        pods: '110',
      },
      allocatable: {
        cpu: String(os.cpus().length),
        memory: `${Math.floor(os.totalmem() / 1024 / 1024)}Mi`,
        pods: '110',
      },
      nodeInfo: {
        machineID: this.options.nodeName,
        systemUUID: this.options.nodeName,
        bootID: String(process.pid),
        kernelVersion: os.release(),
        osImage: 'devenv node agent (local processes)',
        containerRuntimeVersion: 'devenv://local-process',
        kubeletVersion: 'v1.37.2',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: os.arch() === 'x64' ? 'amd64' : os.arch(),
      },
    };
  }

  private async registerNode(): Promise<void> {
    const name = this.options.nodeName;
    await this.client.createIfAbsent('/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          'infrared.darkshift.io/devenv-node-agent': 'true',
        },
      },
    });
  }

  private async heartbeat(): Promise<void> {
    const name = this.options.nodeName;
    await this.client.must(
      'PATCH',
      `/api/v1/nodes/${name}/status`,
      { status: this.nodeStatus() },
      [],
      'application/merge-patch+json',
    );
    const lease = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`;
    const spec = {
      holderIdentity: name,
      leaseDurationSeconds: 40,
      renewTime: microTime(),
    };
    const res = await this.client.request(
      'PATCH',
      lease,
      { spec },
      'application/merge-patch+json',
    );
    if (res.status === 404) {
      await this.client.createIfAbsent(
        '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases',
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name, namespace: 'kube-node-lease' },
          spec,
        },
      );
    }
  }

  /** One pass: bind the unscheduled Pods it takes, start, report and remove its own. */
  async sync(): Promise<void> {
    const node = this.options.nodeName;
    const selector = this.options.selector
      ? `&labelSelector=${encodeURIComponent(this.options.selector)}`
      : '';
    const unscheduled = await this.client.must(
      'GET',
      `/api/v1/pods?fieldSelector=${encodeURIComponent(
        'spec.nodeName=',
      )}${selector}`,
    );
    for (const pod of unscheduled.body.items as any[]) {
      if (pod.metadata.deletionTimestamp || pod.status?.phase !== 'Pending')
        continue;
      const res = await this.client.request(
        'POST',
        `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/binding`,
        {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name: pod.metadata.name, uid: pod.metadata.uid },
          target: { apiVersion: 'v1', kind: 'Node', name: node },
        },
      );
      if (res.status >= 300 && res.status !== 409)
        this.log(`node-agent: binding ${pod.metadata.name}: ${res.status}`);
    }
    const mine = await this.client.must(
      'GET',
      `/api/v1/pods?fieldSelector=${encodeURIComponent(
        `spec.nodeName=${node}`,
      )}`,
    );
    const seen = new Set<string>();
    for (const pod of mine.body.items as any[]) {
      const uid = pod.metadata.uid as string;
      seen.add(uid);
      let run = this.pods.get(uid);
      if (pod.metadata.deletionTimestamp) {
        await this.remove(pod, run);
        continue;
      }
      if (!run && pod.status?.phase !== 'Pending') continue; // a Pod this agent ran before it restarted
      if (!run) {
        run = {
          pod,
          container: pod.spec.containers[0].name,
          logFile: this.logFile(pod, pod.spec.containers[0].name),
          startedAt: '',
        };
        this.pods.set(uid, run);
      }
      if (!run.child && !run.exit) await this.startPod(run);
    }
    for (const [uid, run] of this.pods) {
      if (!seen.has(uid)) {
        this.kill(run, 'SIGKILL');
        this.pods.delete(uid);
      }
    }
  }

  private logFile(pod: PodLike, container: string): string {
    const dir = path.join(this.options.dataDir, 'pods', pod.metadata.uid);
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, `${container}.log`);
  }

  private findLog(namespace: string, name: string, container?: string) {
    for (const run of this.pods.values()) {
      const { metadata } = run.pod;
      if (
        metadata.namespace === namespace &&
        metadata.name === name &&
        (!container || container === run.container)
      ) {
        return { file: run.logFile, done: () => !!run.exit || !run.child };
      }
    }
    return undefined;
  }

  private async secretData(namespace: string, name: string) {
    const res = await this.client.request(
      'GET',
      `/api/v1/namespaces/${namespace}/secrets/${name}`,
    );
    if (res.status === 404) return undefined;
    if (res.status !== 200)
      throw new Error(`GET secret ${namespace}/${name}: ${res.status}`);
    return Object.fromEntries(
      Object.entries<string>(res.body.data ?? {}).map(([k, v]) => [
        k,
        Buffer.from(v, 'base64').toString('utf8'),
      ]),
    );
  }

  private async configMapData(namespace: string, name: string) {
    const res = await this.client.request(
      'GET',
      `/api/v1/namespaces/${namespace}/configmaps/${name}`,
    );
    if (res.status === 404) return undefined;
    if (res.status !== 200)
      throw new Error(`GET configmap ${namespace}/${name}: ${res.status}`);
    return { ...(res.body.data ?? {}) } as Record<string, string>;
  }

  private async startPod(run: Running): Promise<void> {
    const { pod } = run;
    const { namespace, name, uid } = pod.metadata;
    const container = pod.spec.containers[0];
    const podDir = path.dirname(run.logFile);
    let argv: string[];
    let env: Record<string, string>;
    let mapping: ImageMapping;
    try {
      mapping = mapImage(container.image, this.options.images);
      // everything the container reads from the API, fetched first (the kubelet's sources)
      const secrets = new Map<string, Record<string, string> | undefined>();
      const configMaps = new Map<string, Record<string, string> | undefined>();
      for (const f of container.envFrom ?? []) {
        if (f.secretRef)
          secrets.set(
            f.secretRef.name,
            await this.secretData(namespace, f.secretRef.name),
          );
        if (f.configMapRef)
          configMaps.set(
            f.configMapRef.name,
            await this.configMapData(namespace, f.configMapRef.name),
          );
      }
      for (const e of container.env ?? []) {
        const s = e.valueFrom?.secretKeyRef;
        const c = e.valueFrom?.configMapKeyRef;
        if (s && !secrets.has(s.name))
          secrets.set(s.name, await this.secretData(namespace, s.name));
        if (c && !configMaps.has(c.name))
          configMaps.set(c.name, await this.configMapData(namespace, c.name));
      }
      env = containerEnv(
        pod,
        container,
        { secret: n => secrets.get(n), configMap: n => configMaps.get(n) },
        kubernetesServiceEnv(this.apiHost, this.apiPort),
      );
      argv = containerArgv(container, mapping, env);
      await this.writeToken(pod, path.join(podDir, 'serviceaccount'));
    } catch (e) {
      if (e instanceof ContainerConfigError) {
        if (run.waiting !== e.message) {
          run.waiting = e.message;
          await this.patchStatus(pod, {
            phase: 'Pending',
            conditions: [{ type: 'PodScheduled', status: 'True' }],
            containerStatuses: [
              {
                name: container.name,
                image: container.image,
                imageID: '',
                ready: false,
                restartCount: 0,
                started: false,
                state: { waiting: { reason: e.reason, message: e.message } },
              },
            ],
          });
        }
        return;
      }
      throw e;
    }
    for (const d of ['home', 'tmp', 'work'])
      fs.mkdirSync(path.join(podDir, d), { recursive: true });
    const processEnv: Record<string, string> = {
      PATH: [...mapping.path, SYSTEM_PATH].join(':'),
      HOME: path.join(podDir, 'home'),
      TMPDIR: path.join(podDir, 'tmp'),
      HOSTNAME: name,
      ...mapping.env,
      ...env,
    };
    const cwd =
      container.workingDir && fs.existsSync(container.workingDir)
        ? container.workingDir
        : path.join(podDir, 'work');
    const [exe, ...args] = this.mountNs
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
    const writer = new LogWriter(run.logFile);
    run.startedAt = new Date().toISOString();
    const child = spawn(exe, args, {
      cwd,
      env: processEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    run.child = child;
    writer.attach(child.stdout!, 'stdout');
    writer.attach(child.stderr!, 'stderr');
    this.log(`node-agent: started ${namespace}/${name} (${uid}): ${argv[0]}`);
    const exited = new Promise<void>(resolve => {
      child.on('error', e => {
        writer.write(
          'stderr',
          `node-agent: could not start ${argv[0]}: ${e.message}\n`,
        );
      });
      child.on('close', (code, signal) => {
        writer.close();
        run.exit = {
          code: code ?? 128 + (signal ? os.constants.signals[signal] ?? 9 : 9),
          finishedAt: new Date().toISOString(),
        };
        run.child = undefined;
        resolve();
      });
    });
    await this.patchStatus(pod, {
      phase: 'Running',
      startTime: run.startedAt,
      conditions: this.conditions(true),
      containerStatuses: [
        {
          name: container.name,
          image: container.image,
          imageID: `devenv://${mapping.name}`,
          containerID: `devenv://${uid}`,
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: run.startedAt } },
        },
      ],
    }).catch(e => this.log(`node-agent: status of ${name}: ${e.message}`));
    exited
      .then(() => this.reportExit(run))
      .catch(e => this.log(`node-agent: status of ${name}: ${e.message}`));
  }

  private conditions(ready: boolean) {
    const now = new Date().toISOString();
    const s = ready ? 'True' : 'False';
    return [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
      { type: 'Initialized', status: 'True', lastTransitionTime: now },
      {
        type: 'ContainersReady',
        status: s,
        lastTransitionTime: now,
        ...(ready ? {} : { reason: 'PodCompleted' }),
      },
      {
        type: 'Ready',
        status: s,
        lastTransitionTime: now,
        ...(ready ? {} : { reason: 'PodCompleted' }),
      },
    ];
  }

  private async reportExit(run: Running): Promise<void> {
    if (run.deleting || this.stopped) return;
    const { pod } = run;
    const container = pod.spec.containers[0];
    const { code, finishedAt } = run.exit!;
    let message: string | undefined;
    if (
      code !== 0 &&
      container.terminationMessagePolicy === 'FallbackToLogsOnError'
    ) {
      message = fallbackMessage(parseLog(fs.readFileSync(run.logFile, 'utf8')));
    }
    await this.patchStatus(pod, {
      phase: code === 0 ? 'Succeeded' : 'Failed',
      conditions: this.conditions(false),
      containerStatuses: [
        {
          name: container.name,
          image: container.image,
          imageID: '',
          containerID: `devenv://${pod.metadata.uid}`,
          ready: false,
          started: false,
          restartCount: 0,
          state: {
            terminated: {
              exitCode: code,
              reason: code === 0 ? 'Completed' : 'Error',
              startedAt: run.startedAt,
              finishedAt,
              containerID: `devenv://${pod.metadata.uid}`,
              ...(message ? { message } : {}),
            },
          },
        },
      ],
    });
    this.log(
      `node-agent: ${pod.metadata.namespace}/${pod.metadata.name} exited ${code}`,
    );
  }

  private async patchStatus(pod: PodLike, status: Record<string, unknown>) {
    await this.client.must(
      'PATCH',
      `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`,
      {
        metadata: { uid: pod.metadata.uid },
        status: {
          hostIP: '127.0.0.1',
          hostIPs: [{ ip: '127.0.0.1' }],
          podIP: '127.0.0.1',
          podIPs: [{ ip: '127.0.0.1' }],
          ...status,
        },
      },
      [],
      'application/merge-patch+json',
    );
  }

  /** The Pod's ServiceAccount token (TokenRequest, bound to the Pod), the CA and the namespace. */
  private async writeToken(pod: PodLike, dir: string): Promise<void> {
    const sa = pod.spec.serviceAccountName || 'default';
    const { namespace, name, uid } = pod.metadata;
    const res = await this.client.request(
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts/${sa}/token`,
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: {
          expirationSeconds: 3600,
          boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name, uid },
        },
      },
    );
    if (res.status === 404)
      throw new ContainerConfigError(`serviceaccount "${sa}" not found`);
    if (res.status !== 201 && res.status !== 200)
      throw new Error(
        `TokenRequest for ${namespace}/${sa}: ${res.status} ${
          res.body?.message ?? ''
        }`,
      );
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'token'), res.body.status.token, {
      mode: 0o644,
    });
    fs.writeFileSync(path.join(dir, 'ca.crt'), this.caPem);
    fs.writeFileSync(path.join(dir, 'namespace'), namespace);
  }

  private kill(run: Running, signal: NodeJS.Signals) {
    const pid = run.child?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // gone
    }
  }

  /** A Pod being deleted: stop its process, then confirm the deletion as the kubelet does. */
  private async remove(pod: any, run: Running | undefined): Promise<void> {
    if (run?.child) {
      run.deleting = true;
      this.kill(run, 'SIGTERM');
      const grace =
        Number(pod.metadata.deletionGracePeriodSeconds ?? 30) * 1000;
      setTimeout(
        () => this.kill(run, 'SIGKILL'),
        Math.min(grace, 30_000),
      ).unref();
      return; // the next pass confirms once it has exited
    }
    await this.client.request(
      'DELETE',
      `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`,
      {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.metadata.uid },
      },
    );
    if (run) {
      this.pods.delete(pod.metadata.uid);
      fs.rmSync(path.dirname(run.logFile), { recursive: true, force: true });
    }
  }
}
