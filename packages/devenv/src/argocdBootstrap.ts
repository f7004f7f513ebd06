import fs from 'node:fs';
import path from 'node:path';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { AppliedObject, parseManifests, serverSideApply } from './apply';
import type { ClusterInfo, ControlPlane } from './controlPlane';

/**
 * The bootstrap of Argo CD for Infrared, the files a platform team applies to its own Argo CD:
 * `deploy/argocd/*.yaml` (the AppProjects platform, infrared and products, and the root Application
 * registry-<management cluster>), with `${GITOPS_REPO_URL}`, `${GITOPS_BRANCH}` and
 * `${MANAGEMENT_CLUSTER}` to substitute (e.g. with envsubst).
 */
export const BOOTSTRAP_DIR = path.resolve(
  // eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
  __dirname,
  '../../../deploy/argocd',
);

export interface BootstrapOptions {
  /** The gitops repository as Argo CD clones it (`infrared.gitops.argocdRepoUrl`). */
  repoUrl: string;
  /** The management Cluster's name (`infrared.managementCluster.name`), e.g. infrared-mgmt. */
  managementCluster: string;
  /** The gitops repository's default branch. Default main. */
  branch?: string;
  /** Where the files are. Default BOOTSTRAP_DIR. */
  dir?: string;
}

const VARIABLE = /\$\{([A-Z_]+)\}/g;

/** `value` with the variables of every string in it substituted (after parsing: any text is safe). */
function substitute(
  value: any,
  values: Record<string, string>,
  file: string,
): any {
  if (typeof value === 'string')
    return value.replace(VARIABLE, (m, n) => {
      if (!(n in values))
        throw new Error(`devenv: ${file} names an unknown variable ${m}`);
      return values[n];
    });
  if (Array.isArray(value)) return value.map(v => substitute(v, values, file));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        substitute(k, values, file),
        substitute(v, values, file),
      ]),
    );
  return value;
}

/** The bootstrap's objects, its files read in name order with the variables substituted. */
export function bootstrapManifests(opts: BootstrapOptions): any[] {
  const dir = opts.dir ?? BOOTSTRAP_DIR;
  const values: Record<string, string> = {
    GITOPS_REPO_URL: opts.repoUrl,
    GITOPS_BRANCH: opts.branch ?? 'main',
    MANAGEMENT_CLUSTER: opts.managementCluster,
  };
  return fs
    .readdirSync(dir)
    .filter(f => f.endsWith('.yaml'))
    .sort()
    .flatMap(f =>
      parseManifests(fs.readFileSync(path.join(dir, f), 'utf8')).map(o =>
        substitute(o, values, f),
      ),
    );
}

/**
 * Bootstraps Argo CD as the gitops template does, on the cluster where Argo CD runs (a control
 * plane's management cluster, or any cluster by its admin kubeconfig): the AppProjects `platform`,
 * `infrared` and `products`, and the root Application `registry-<managementCluster>` over
 * `registry/clusters/<managementCluster>/components` of `repoUrl`. Server-side apply, so it can run
 * again; the `products` AppProject's destinations (appended per zone) are left as they are.
 * Argo CD's CRDs must be served already (startArgoCd installs them).
 */
export async function bootstrapArgoCd(
  target: ControlPlane | Pick<ClusterInfo, 'kubeconfig'>,
  opts: BootstrapOptions,
): Promise<AppliedObject[]> {
  const cluster = 'clusters' in target ? target.cluster('management') : target;
  const objects = bootstrapManifests(opts);
  const client = KubeClient.fromKubeconfig(cluster.kubeconfig);
  for (const ns of new Set(objects.map(o => o.metadata.namespace))) {
    await client.createIfAbsent('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
  }
  return serverSideApply(cluster, objects);
}
