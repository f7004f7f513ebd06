import {
  eventually,
  uniqueName,
  type KubeClient as DevenvClient,
} from '@internal/devenv';
import { PREFIX } from './fixtures';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * Children on a devenv control plane as a provisioner makes them: managed namespaces with a k3k
 * kubeconfig Secret. Remembers the namespaces it made; cleanUp deletes them.
 */
export class LiveChildren {
  readonly created: string[] = [];

  constructor(private readonly admin: DevenvClient) {}

  async createNamespace(
    name: string,
    labels: Record<string, string>,
    extra: { annotations?: Record<string, string>; finalizers?: string[] } = {},
  ) {
    this.created.push(name);
    const res = await this.admin.must('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels, ...extra },
    });
    return res.body;
  }

  /** A new managed namespace claiming a new cluster, with its kubeconfig Secret; the cluster's name. */
  async addChild(managedBy: string, kubeconfig: string, prefix: string) {
    const ns = uniqueName('k3k');
    const cluster = uniqueName(prefix);
    await this.createNamespace(ns, {
      [`${PREFIX}managed-by`]: managedBy,
      [`${PREFIX}cluster`]: cluster,
    });
    await this.admin.must('POST', `/api/v1/namespaces/${ns}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `k3k-${cluster}-kubeconfig`, namespace: ns },
      data: { 'kubeconfig.yaml': b64(kubeconfig) },
    });
    return cluster;
  }

  /** Resolves once the registration `cluster-<cluster>` is in `target` (within 30 s). */
  registered(target: string, cluster: string, everyMs = 100) {
    return eventually(
      async () =>
        (
          await this.admin.request(
            'GET',
            `/api/v1/namespaces/${target}/secrets/cluster-${cluster}`,
          )
        ).status === 200,
      30_000,
      everyMs,
    );
  }

  async cleanUp() {
    await Promise.all(
      this.created.map(ns =>
        this.admin
          .request('DELETE', `/api/v1/namespaces/${ns}`)
          .catch(() => undefined),
      ),
    );
  }
}
