import path from 'node:path';
import type { ClusterInfo } from './controlPlane';
import { ensureNamespace, installCrds } from './helpers';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { bootstrapManifests } from './argocdBootstrap';

/** Argo CD's Application and AppProject kinds for when no Argo CD runs (INFRARED_ARGOCD=off). */
const ARGOCD_CRDS = path.join('deploy', 'test-fixtures', 'argocd-crds.yaml');
const API = '/apis/infrared.darkshift.io/v1alpha1';

export interface PlacementDemoOptions {
  /** The repository root (the Argo CD kinds are read from its deploy/test-fixtures). */
  repoRoot: string;
  /** The Organization. Default acme. */
  org?: string;
  /** The Product in the org's namespace ir-org-<org>. Default checkout. */
  product?: string;
  /** The cluster of the release zone. Default edge-demo. */
  zoneCluster?: string;
  /** The AppProject of zone Applications in namespace argocd. Default products. */
  project?: string;
  /** Who is an org admin of the org. Default the local guest user. */
  orgAdmins?: string[];
  /**
   * Argo CD runs on the management cluster, its CRDs installed from its own manifests: the reduced
   * kinds of deploy/test-fixtures are then not installed over them. Default false.
   */
  argoCdRuns?: boolean;
  /** The gitops repository as Argo CD clones it: the AppProject's sourceRepos. Default `*`. */
  repoUrl?: string;
}

export interface PlacementDemo {
  org: string;
  namespace: string;
  product: string;
  zones: string[];
  release: string;
  /** Objects made by this run (the rest were there and left as they were). */
  created: string[];
}

/**
 * The placement demo on the management cluster, for the Product zone-placement card: Organization
 * `acme` (namespace ir-org-acme, no cluster allowed yet, the guest user an org admin), Product
 * `checkout` with a pre-release zone on the management cluster (`checkout-rc`) and a release zone on
 * edge-demo (`checkout-prod`), its first Release promoting, and the AppProject `products` allowing
 * both destinations. What exists is left as it is (an allowlist ticked in the UI stays ticked).
 */
export async function setUpPlacementDemo(
  management: ClusterInfo,
  options: PlacementDemoOptions,
): Promise<PlacementDemo> {
  const org = options.org ?? 'acme';
  const product = options.product ?? 'checkout';
  const zoneCluster = options.zoneCluster ?? 'edge-demo';
  const project = options.project ?? 'products';
  const namespace = `ir-org-${org}`;
  const rc = `${product}-rc`;
  const prod = `${product}-prod`;
  const release = `${product}-v0-1-0`;
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  const created: string[] = [];
  const create = async (what: string, url: string, body: unknown) => {
    const res = await admin.createIfAbsent(url, body);
    if (res.status !== 409) created.push(what);
    return res.status !== 409;
  };

  if (!options.argoCdRuns)
    await installCrds(management, path.join(options.repoRoot, ARGOCD_CRDS));
  await ensureNamespace(management, 'argocd');
  await ensureNamespace(management, namespace);

  await ensureOrganization(admin, create, {
    org,
    namespace,
    orgAdmins: options.orgAdmins ?? ['user:development/guest'],
  });

  await create(
    `Product ${namespace}/${product}`,
    `${API}/namespaces/${namespace}/products`,
    {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Product',
      metadata: { name: product, namespace },
      spec: {
        displayName: product[0].toUpperCase() + product.slice(1),
        repos: [{ name: product, owner: org, role: 'app' }],
        delivery: {
          zones: [
            { name: rc, environment: 'pre-release' },
            { name: prod, environment: 'release', cluster: zoneCluster },
          ],
        },
      },
    },
  );

  await ensureZoneDestinations(admin, project, options.repoUrl ?? '*', create, [
    { server: 'https://kubernetes.default.svc', namespace: rc },
    { name: zoneCluster, namespace: prod },
  ]);

  await ensurePromotingRelease(admin, create, namespace, product, release);
  return { org, namespace, product, zones: [rc, prod], release, created };
}

type Create = (what: string, url: string, body: unknown) => Promise<boolean>;

/** Organization `org` with its team of org admins, and the namespace its status records. */
async function ensureOrganization(
  admin: KubeClient,
  create: Create,
  o: { org: string; namespace: string; orgAdmins: string[] },
): Promise<void> {
  const { org, namespace } = o;
  await create(`Organization ${org}`, `${API}/organizations`, {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Organization',
    metadata: { name: org },
    spec: {
      displayName: org.toUpperCase(),
      clusterAllowlist: [],
      teams: [{ name: 'leads', role: 'org-admin', members: o.orgAdmins }],
    },
  });
  const current = await admin.must('GET', `${API}/organizations/${org}`);
  if (!current.body.status?.namespace) {
    // What Infrared's operator records once it made the org's namespace.
    await admin.must(
      'PATCH',
      `${API}/organizations/${org}/status`,
      { status: { namespace } },
      [],
      'application/merge-patch+json',
    );
  }
}

/** The product's first Release, Promoting when this call created it. */
async function ensurePromotingRelease(
  admin: KubeClient,
  create: Create,
  namespace: string,
  product: string,
  release: string,
): Promise<void> {
  const releaseCreated = await create(
    `Release ${namespace}/${release}`,
    `${API}/namespaces/${namespace}/releases`,
    {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Release',
      metadata: { name: release, namespace },
      spec: { productRef: { name: product }, version: 'v0.1.0' },
    },
  );
  if (releaseCreated) {
    // Built and tagged elsewhere (out of scope here): the release gate takes it from Promoting.
    await admin.must(
      'PATCH',
      `${API}/namespaces/${namespace}/releases/${release}/status`,
      { status: { phase: 'Promoting', version: 'v0.1.0' } },
      [],
      'application/merge-patch+json',
    );
  }
}

const PROJECTS = '/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects';

/**
 * The AppProject `project` as the Argo CD bootstrap defines `products` (deploy/argocd/appprojects.yaml,
 * one definition), made when missing, with the zones' destinations appended to those it has.
 */
async function ensureZoneDestinations(
  admin: KubeClient,
  project: string,
  repoUrl: string,
  create: Create,
  wanted: Array<Record<string, string>>,
): Promise<void> {
  const definition = bootstrapManifests({
    repoUrl,
    managementCluster: 'unused',
  }).find(o => o.kind === 'AppProject' && o.metadata.name === 'products');
  await create(`AppProject ${project}`, PROJECTS, {
    ...definition,
    metadata: { ...definition.metadata, name: project },
    spec: { ...definition.spec, destinations: wanted },
  });
  const current = (await admin.must('GET', `${PROJECTS}/${project}`)).body;
  const have: Array<Record<string, string>> = current.spec.destinations ?? [];
  const same = (a: Record<string, string>, b: Record<string, string>) =>
    a.namespace === b.namespace && a.server === b.server && a.name === b.name;
  const missing = wanted.filter(w => !have.some(h => same(h, w)));
  if (!missing.length) return;
  await admin.must(
    'PATCH',
    `${PROJECTS}/${project}`,
    {
      metadata: { resourceVersion: current.metadata.resourceVersion },
      spec: { destinations: [...have, ...missing] },
    },
    [],
    'application/merge-patch+json',
  );
}
