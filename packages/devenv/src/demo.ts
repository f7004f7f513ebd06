import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { ControlPlane, ClusterInfo } from './controlPlane';
import {
  createNodes,
  createServiceAccountKubeconfig,
  ensureNamespace,
} from './helpers';
import {
  KubeClient,
  parseKubeconfig,
  renderKubeconfig,
} from '@infrared-clusters/infrared-kube';

/** The registrar's defaults (plugins/infrared-registrar/src/options REGISTRAR_DEFAULTS). */
export const REGISTRAR_LABEL_PREFIX = 'argocd-cluster-registrar/';
export const REGISTRAR_MANAGED_BY = 'cluster-registrar';

/** The demo's child cluster: not `edge-demo`, so it never collides with a user registering edge-demo. */
export const DEMO_CHILD = 'sandbox';

/** A renewed token lives a year; one with less than this left is renewed by `devenv up`. */
const TOKEN_SECONDS = 365 * 86_400;
const RENEW_BEFORE_MS = 30 * 86_400_000;

export interface DemoChildOptions {
  /** The child's name (the `<prefix>cluster` label and the Argo CD cluster name). Default `sandbox`. */
  name?: string;
  /** The namespace on the management cluster, as k3k names it. Default `k3k-<name>`. */
  namespace?: string;
  labelPrefix?: string;
  managedBy?: string;
  /**
   * The host the child's kubeconfig names for the workload cluster's API server. Default `localhost`:
   * the serving certificate covers it (certs.ts) and it differs from the `127.0.0.1` of the workload's
   * own kubeconfig, so Argo CD never holds two cluster Secrets with one server.
   */
  host?: string;
}

export interface DemoChild {
  name: string;
  namespace: string;
  secretName: string;
  server: string;
  /** True when the Secret already held a working kubeconfig for this server and was left as it was. */
  reused: boolean;
}

/** The `exp` of a JWT bearer token, in ms; undefined when it has none or is not a JWT. */
function tokenExpiry(token: string | undefined): number | undefined {
  try {
    const payload = JSON.parse(
      Buffer.from(token!.split('.')[1], 'base64url').toString('utf8'),
    );
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The kubeconfig as it stands, when it still reaches `server` with a token that is not about to expire. */
async function stillWorks(
  text: string | undefined,
  server: string,
  caData: string,
): Promise<boolean> {
  if (!text) return false;
  try {
    const access = parseKubeconfig(text);
    const expiry = tokenExpiry(access.token);
    if (access.server !== server || access.caData !== caData) return false;
    if (!expiry || expiry - Date.now() < RENEW_BEFORE_MS) return false;
    const res = await KubeClient.fromAccess(access).request(
      'GET',
      '/api/v1/nodes?limit=1',
    );
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * A k3k-style child cluster for the registrar to discover: namespace `k3k-<name>` on the management
 * cluster labelled `<prefix>managed-by: <managedBy>` and `<prefix>cluster: <name>`, holding Secret
 * `k3k-<name>-kubeconfig` (key `kubeconfig.yaml`) with a kubeconfig for `workload` through a
 * ServiceAccount token (ServiceAccount `<name>` in namespace `infrared-demo` of `workload`, bound to
 * cluster-admin as Argo CD's own account is). Idempotent: a Secret whose kubeconfig names the same
 * server and CA and whose token works for another 30 days is left untouched.
 */
export async function ensureDemoChild(
  management: ClusterInfo,
  workload: ClusterInfo,
  options: DemoChildOptions = {},
): Promise<DemoChild> {
  const name = options.name ?? DEMO_CHILD;
  const namespace = options.namespace ?? `k3k-${name}`;
  const prefix = options.labelPrefix ?? REGISTRAR_LABEL_PREFIX;
  const managedBy = options.managedBy ?? REGISTRAR_MANAGED_BY;
  const secretName = `k3k-${name}-kubeconfig`;
  const server = workload.server.replace(
    '//127.0.0.1:',
    `//${options.host ?? 'localhost'}:`,
  );
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  const labels = {
    [`${prefix}managed-by`]: managedBy,
    [`${prefix}cluster`]: name,
  };

  const nsPath = `/api/v1/namespaces/${namespace}`;
  await ensureLabelledNamespace(admin, namespace, labels);
  const secretPath = `${nsPath}/secrets/${secretName}`;
  const current = await admin.request('GET', secretPath);
  const currentData = current.status === 200 ? current.body.data : undefined;
  const currentText = currentData?.['kubeconfig.yaml']
    ? Buffer.from(currentData['kubeconfig.yaml'], 'base64').toString('utf8')
    : undefined;
  if (await stillWorks(currentText, server, workload.caData)) {
    return { name, namespace, secretName, server, reused: true };
  }

  const token = parseKubeconfig(
    await createServiceAccountKubeconfig(workload, {
      namespace: 'infrared-demo',
      name,
      clusterRole: 'cluster-admin',
      expirationSeconds: TOKEN_SECONDS,
    }),
  ).token;
  const kubeconfig = renderKubeconfig(
    name,
    { server, caData: workload.caData, token },
    'infrared-demo',
  );
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: secretName,
      namespace,
      labels: { 'devenv.infrared.darkshift.io/demo': 'true' },
    },
    type: 'Opaque',
    data: {
      'kubeconfig.yaml': Buffer.from(kubeconfig).toString('base64'),
    },
  };
  if (current.status === 200) {
    const { resourceVersion } = current.body.metadata;
    const metadata = { ...secret.metadata, resourceVersion };
    await admin.must('PUT', secretPath, { ...secret, metadata });
  } else {
    await admin.must('POST', `${nsPath}/secrets`, secret);
  }
  return { name, namespace, secretName, server, reused: false };
}

/** Creates the namespace with `labels`, or sets them on the one that exists. */
async function ensureLabelledNamespace(
  admin: KubeClient,
  namespace: string,
  labels: Record<string, string>,
): Promise<void> {
  const created = await admin.createIfAbsent('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace, labels },
  });
  if (created.status === 409) {
    await admin.must(
      'PATCH',
      `/api/v1/namespaces/${namespace}`,
      { metadata: { labels } },
      [],
      'application/merge-patch+json',
    );
  }
}

/**
 * The registrar's `labelPrefix` and `managedBy` as the portal will read them: `infrared.registrar` in
 * app-config.yaml, then app-config.local.yaml (values with `${...}` substitutions are skipped).
 */
export function registrarLabelsFromConfig(repoRoot: string): {
  labelPrefix: string;
  managedBy: string;
} {
  const found = {
    labelPrefix: REGISTRAR_LABEL_PREFIX,
    managedBy: REGISTRAR_MANAGED_BY,
  };
  for (const file of ['app-config.yaml', 'app-config.local.yaml']) {
    const full = path.join(repoRoot, file);
    if (!fs.existsSync(full)) continue;
    let registrar: any;
    try {
      registrar = YAML.parse(fs.readFileSync(full, 'utf8'))?.infrared
        ?.registrar;
    } catch {
      continue;
    }
    for (const key of ['labelPrefix', 'managedBy'] as const) {
      const value = registrar?.[key];
      if (typeof value === 'string' && value && !value.includes('${'))
        found[key] = value;
    }
  }
  return found;
}

/**
 * What `devenv up` (without --state) puts in the demo clusters, every run (each step reuses what is
 * there): namespaces `infrared` and `argocd` on the management cluster, two Nodes on the workload
 * cluster, the kubeconfigs in `dataDir`, and the child cluster `sandbox` for the registrar.
 */
export async function setUpDemo(
  cp: Pick<ControlPlane, 'clusters'>,
  opts: { dataDir: string; repoRoot: string; log?: (m: string) => void },
): Promise<DemoChild | undefined> {
  const [management, workload] = cp.clusters;
  await ensureNamespace(management, 'infrared');
  await ensureNamespace(management, 'argocd');
  for (const c of cp.clusters)
    fs.writeFileSync(
      path.join(opts.dataDir, `${c.name}.kubeconfig`),
      c.kubeconfig,
      {
        mode: 0o600,
      },
    );
  if (!workload) return undefined;
  await createNodes(workload, 2, `${workload.name}-node`);
  const child = await ensureDemoChild(
    management,
    workload,
    registrarLabelsFromConfig(opts.repoRoot),
  );
  opts.log?.(
    `child cluster ${child.name} for the registrar: namespace ${
      child.namespace
    }, Secret ${child.secretName} (${workload.name} at ${child.server}${
      child.reused ? ', reused' : ''
    })`,
  );
  return child;
}
