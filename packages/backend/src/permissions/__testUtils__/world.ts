import crypto from 'node:crypto';
import { KubeClient } from '@internal/devenv';

export const API = '/apis/infrared.darkshift.io/v1alpha1';
export const ORG = 'acme';
export const ORG_NAMESPACE = `ir-org-${ORG}`;

/** The objects of one run, all named with `run` so that other tests' objects are never counted. */
export interface World {
  run: string;
  management: KubeClient;
  workload: KubeClient;
  product: string;
  zone: string;
}

const sha = (value: unknown) =>
  crypto
    .createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('hex')
    .slice(0, 16);

async function items(client: KubeClient, path: string): Promise<any[]> {
  const res = await client.request('GET', path);
  if (res.status === 404) return [];
  if (res.status !== 200) {
    throw new Error(`GET ${path} answered ${res.status}`);
  }
  return res.body.items ?? [];
}

/**
 * What a refused write must leave as it was, read with admin clients: the run's Clusters (spec,
 * being deleted), the kubeconfig Secrets in infrared (data), the Jobs in infrared and
 * infrared-tofu, Organization acme (spec: its teams and allowlist), the run's Product (spec) and
 * Releases (spec and status), and the run's Namespaces on the management and the workload cluster.
 * The other objects' status is left out: the reconciler writes it on its own.
 */
export async function snapshot(w: World): Promise<Record<string, string>> {
  const mine = (o: any) => JSON.stringify(o.metadata).includes(w.run);
  const out: Record<string, string> = {};
  for (const c of (await items(w.management, `${API}/clusters`)).filter(mine)) {
    out[`Cluster ${c.metadata.name}`] = sha({
      spec: c.spec,
      deleting: !!c.metadata.deletionTimestamp,
    });
  }
  // (Argo CD's Secrets are the reconciler's: it writes them after an allowed registration)
  const secrets = await items(
    w.management,
    '/api/v1/namespaces/infrared/secrets',
  );
  for (const s of secrets.filter(mine)) {
    out[`Secret infrared/${s.metadata.name}`] = sha(s.data);
  }
  for (const ns of ['infrared', 'infrared-tofu']) {
    const jobs = await items(
      w.management,
      `/apis/batch/v1/namespaces/${ns}/jobs`,
    );
    for (const j of jobs.filter(mine)) out[`Job ${ns}/${j.metadata.name}`] = '';
  }
  const org = await w.management.request('GET', `${API}/organizations/${ORG}`);
  out[`Organization ${ORG}`] = sha(org.body?.spec);
  const product = await w.management.request(
    'GET',
    `${API}/namespaces/${ORG_NAMESPACE}/products/${w.product}`,
  );
  out[`Product ${w.product}`] = sha(product.body?.spec);
  // the run's Releases: status too, which only an approval writes here (no gate runs on them)
  const releases = await items(
    w.management,
    `${API}/namespaces/${ORG_NAMESPACE}/releases`,
  );
  for (const r of releases.filter(mine)) {
    out[`Release ${r.metadata.name}`] = sha({
      spec: r.spec,
      status: r.status,
    });
  }
  for (const [where, client] of [
    ['management', w.management],
    ['workload', w.workload],
  ] as const) {
    for (const n of (await items(client, '/api/v1/namespaces')).filter(mine)) {
      out[`Namespace ${where}/${n.metadata.name}`] = '';
    }
  }
  return out;
}

/** Organization acme (user:default/olga in its org-admin team) with the run's Product and zone. */
export async function createOrgAndProduct(
  w: World,
  allowlist: string[],
): Promise<void> {
  const spec = {
    displayName: 'Acme',
    teams: [
      { name: 'leads', role: 'org-admin', members: ['user:default/olga'] },
      { name: 'devs', role: 'member', members: ['user:default/una'] },
    ],
    clusterAllowlist: allowlist,
  };
  const org = await w.management.request('GET', `${API}/organizations/${ORG}`);
  if (org.status === 200) {
    await w.management.must('PUT', `${API}/organizations/${ORG}`, {
      ...org.body,
      spec: { ...org.body.spec, ...spec },
    });
  } else {
    await w.management.must('POST', `${API}/organizations`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Organization',
      metadata: { name: ORG },
      spec,
    });
  }
  await w.management.must(
    'POST',
    '/api/v1/namespaces',
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ORG_NAMESPACE } },
    [409],
  );
  await w.management.must(
    'POST',
    `${API}/namespaces/${ORG_NAMESPACE}/products`,
    {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Product',
      metadata: { name: w.product, namespace: ORG_NAMESPACE },
      spec: {
        displayName: 'Shop',
        repos: [{ name: 'shop' }],
        delivery: { zones: [{ name: w.zone, cluster: allowlist[0] }] },
      },
    },
  );
}

/**
 * A Release of the run's Product whose zone is in `zonePhase` (something to approve). Its phase is
 * Tagged, one no release gate evaluates, so the gates of the other backends on the shared control
 * plane leave the zone as written.
 */
export async function releaseWithZone(
  w: World,
  name: string,
  zonePhase: 'AwaitingApproval' | 'Healthy',
): Promise<void> {
  const path = `${API}/namespaces/${ORG_NAMESPACE}/releases`;
  await w.management.must('POST', path, {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Release',
    metadata: { name, namespace: ORG_NAMESPACE },
    spec: { productRef: { name: w.product } },
  });
  await w.management.must(
    'PATCH',
    `${path}/${name}/status`,
    {
      status: { phase: 'Tagged', zones: [{ name: w.zone, phase: zonePhase }] },
    },
    [],
    'application/merge-patch+json',
  );
}

/** A bare workload Cluster made with the admin client (something to remove). */
export async function bareCluster(w: World, name: string): Promise<void> {
  await w.management.must('POST', `${API}/clusters`, {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: { type: 'workload', provider: 'local' },
  });
}

/** Whether a Cluster is Registered (condition True). */
export async function isRegistered(w: World, name: string): Promise<boolean> {
  const res = await w.management.request('GET', `${API}/clusters/${name}`);
  return (res.body?.status?.conditions ?? []).some(
    (c: any) => c.type === 'Registered' && c.status === 'True',
  );
}

/** Removes what the run made (Clusters, Namespaces, the Product, its Releases); leaves Organization acme. */
export async function cleanUp(w: World): Promise<void> {
  const mine = (o: any) => JSON.stringify(o.metadata).includes(w.run);
  for (const c of (await items(w.management, `${API}/clusters`)).filter(mine)) {
    await w.management.request('DELETE', `${API}/clusters/${c.metadata.name}`);
  }
  await w.management.request(
    'DELETE',
    `${API}/namespaces/${ORG_NAMESPACE}/products/${w.product}`,
  );
  const releases = await items(
    w.management,
    `${API}/namespaces/${ORG_NAMESPACE}/releases`,
  );
  for (const r of releases.filter(mine)) {
    await w.management.request(
      'DELETE',
      `${API}/namespaces/${ORG_NAMESPACE}/releases/${r.metadata.name}`,
    );
  }
  for (const client of [w.management, w.workload]) {
    for (const n of (await items(client, '/api/v1/namespaces')).filter(mine)) {
      const ns = `/api/v1/namespaces/${n.metadata.name}`;
      await client.request('DELETE', `${ns}/configmaps/${n.metadata.name}`);
      await client.request('DELETE', ns);
      // workload-a runs no namespace controller: finish the deletion as it would
      const left = await client.request('GET', ns);
      if (left.status === 200 && left.body.metadata.deletionTimestamp) {
        await client.request('PUT', `${ns}/finalize`, {
          ...left.body,
          spec: { finalizers: [] },
        });
      }
    }
  }
}

/**
 * Gives a built Cluster a last OpenTofu Job in its status (one that ran nothing here), so its
 * provision log is there to read (200, empty) rather than "no Job yet" (404).
 */
export async function setLastJob(
  w: World,
  name: string,
  job: string,
): Promise<void> {
  await w.management.must(
    'PATCH',
    `${API}/clusters/${name}/status`,
    {
      status: {
        provision: { action: 'plan', generation: 1, job, phase: 'Succeeded' },
      },
    },
    [],
    'application/merge-patch+json',
  );
}
