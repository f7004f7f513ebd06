import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { ClusterInfo } from './controlPlane';
import { ensureNode } from './nodeAgent/node';
import { KubeClient, renderKubeconfig } from '@infrared-clusters/infrared-kube';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
const adminClient = (cluster: ClusterInfo) =>
  KubeClient.fromKubeconfig(cluster.kubeconfig);

export async function ensureNamespace(
  cluster: ClusterInfo,
  name: string,
): Promise<void> {
  await adminClient(cluster).createIfAbsent('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
}

/**
 * Creates a ServiceAccount bound by a ClusterRoleBinding to `clusterRole` and returns a bearer-token
 * kubeconfig for it (token from the TokenRequest API).
 */
export async function createServiceAccountKubeconfig(
  cluster: ClusterInfo,
  opts: {
    namespace: string;
    name: string;
    clusterRole: string;
    expirationSeconds?: number;
  },
): Promise<string> {
  const client = adminClient(cluster);
  const { namespace, name, clusterRole } = opts;
  await ensureNamespace(cluster, namespace);
  await client.createIfAbsent(
    `/api/v1/namespaces/${namespace}/serviceaccounts`,
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name, namespace },
    },
  );
  await client.createIfAbsent(
    '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `${namespace}-${name}-${clusterRole}`.slice(0, 253) },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: clusterRole,
      },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    },
  );
  const res = await client.must(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: opts.expirationSeconds ?? 86400 },
    },
  );
  return renderKubeconfig(
    cluster.name,
    {
      ...client.access,
      certData: undefined,
      keyData: undefined,
      token: res.body.status.token,
    },
    `${namespace}-${name}`,
  );
}

/** Creates `count` Node objects named `<prefix>-<i>` (no kubelet behind them). */
export async function createNodes(
  cluster: ClusterInfo,
  count: number,
  prefix = 'node',
): Promise<string[]> {
  const client = adminClient(cluster);
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  for (const name of names) {
    await ensureNode(client, name, {
      'devenv.infrared.darkshift.io/fake': 'true',
    });
  }
  return names;
}

function readDocs(dir: string): any[] {
  const files = fs.statSync(dir).isDirectory()
    ? fs
        .readdirSync(dir)
        .filter(f => /\.ya?ml$/.test(f))
        .sort()
        .map(f => path.join(dir, f))
    : [dir];
  return files
    .flatMap(f =>
      YAML.parseAllDocuments(fs.readFileSync(f, 'utf8')).map(d => d.toJSON()),
    )
    .filter(Boolean);
}

/** Applies every CRD in a folder (or file) and waits until each is Established and a LIST of it succeeds. */
export async function installCrds(
  cluster: ClusterInfo,
  dir: string,
  timeoutMs = 60_000,
): Promise<string[]> {
  const client = adminClient(cluster);
  const crds = readDocs(dir).filter(d => d.kind === 'CustomResourceDefinition');
  const base = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  for (const crd of crds) {
    const res = await client.must('POST', base, crd, [409]);
    if (res.status === 409) {
      await client.must(
        'PATCH',
        `${base}/${crd.metadata.name}?fieldManager=devenv`,
        crd,
        [],
        'application/merge-patch+json',
      );
    }
  }
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const { group, names } = crd.spec;
    const version = crd.spec.versions.find((v: any) => v.served !== false).name;
    const list = `/apis/${group}/${version}/${names.plural}?limit=1`;
    for (;;) {
      const got = await client.request('GET', `${base}/${crd.metadata.name}`);
      const established = got.body?.status?.conditions?.some(
        (c: any) => c.type === 'Established' && c.status === 'True',
      );
      if (established && (await client.request('GET', list)).status === 200)
        break;
      if (Date.now() > deadline)
        throw new Error(
          `devenv: CRD ${crd.metadata.name} not served after ${
            timeoutMs / 1000
          }s`,
        );
      await sleep(200);
    }
  }
  return crds.map(c => c.metadata.name);
}

/** Polls `check` until it returns a truthy value or the timeout passes. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 500,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs / 1000}s`);
    await sleep(everyMs);
  }
}
