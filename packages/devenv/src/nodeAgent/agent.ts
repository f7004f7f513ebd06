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
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
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
import { fallbackMessage, parseLog } from './logs';
import { bindUnscheduledPods, ensureNode, nodeHeartbeat } from './node';
import {
  envSources,
  patchPodStatus,
  runningStatus,
  terminatedStatus,
  waitingStatus,
  writeServiceAccountToken,
} from './podApi';
import { spawnContainer } from './process';
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

  private async registerNode(): Promise<void> {
    await ensureNode(this.client, this.options.nodeName, {
      'kubernetes.io/os': 'linux',
      'infrared.darkshift.io/devenv-node-agent': 'true',
    });
  }

  private heartbeat(): Promise<void> {
    return nodeHeartbeat(this.client, this.options.nodeName, this.port);
  }

  /** One pass: bind the unscheduled Pods it takes, start, report and remove its own. */
  async sync(): Promise<void> {
    const node = this.options.nodeName;
    await bindUnscheduledPods(this.client, node, this.options.selector, m =>
      this.log(m),
    );
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
      env = containerEnv(
        pod,
        container,
        await envSources(this.client, namespace, container),
        kubernetesServiceEnv(this.apiHost, this.apiPort),
      );
      argv = containerArgv(container, mapping, env);
      await writeServiceAccountToken(
        this.client,
        pod,
        path.join(podDir, 'serviceaccount'),
        this.caPem,
      );
    } catch (e) {
      if (!(e instanceof ContainerConfigError)) throw e;
      if (run.waiting !== e.message) {
        run.waiting = e.message;
        await patchPodStatus(this.client, pod, waitingStatus(container, e));
      }
      return;
    }
    run.startedAt = new Date().toISOString();
    let exited!: () => void;
    const exit = new Promise<void>(resolve => (exited = resolve));
    run.child = spawnContainer({
      container,
      mapping,
      argv,
      env,
      podName: name,
      podDir,
      logFile: run.logFile,
      mountNamespace: this.mountNs,
      onExit: code => {
        run.exit = { code, finishedAt: new Date().toISOString() };
        run.child = undefined;
        exited();
      },
    });
    this.log(`node-agent: started ${namespace}/${name} (${uid}): ${argv[0]}`);
    await patchPodStatus(
      this.client,
      pod,
      runningStatus(pod, mapping.name, run.startedAt),
    ).catch(e => this.log(`node-agent: status of ${name}: ${e.message}`));
    // the exit is reported after the Running status, never before it
    exit
      .then(() => this.reportExit(run))
      .catch(e => this.log(`node-agent: status of ${name}: ${e.message}`));
  }

  private async reportExit(run: Running): Promise<void> {
    if (run.deleting || this.stopped) return;
    const { pod } = run;
    const container = pod.spec.containers[0];
    const { code, finishedAt } = run.exit!;
    const message =
      code !== 0 &&
      container.terminationMessagePolicy === 'FallbackToLogsOnError'
        ? fallbackMessage(parseLog(fs.readFileSync(run.logFile, 'utf8')))
        : undefined;
    await patchPodStatus(
      this.client,
      pod,
      terminatedStatus(
        pod,
        { code, startedAt: run.startedAt, finishedAt },
        message,
      ),
    );
    this.log(
      `node-agent: ${pod.metadata.namespace}/${pod.metadata.name} exited ${code}`,
    );
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
