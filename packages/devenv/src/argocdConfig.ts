import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { KubeClient } from '@infrared-clusters/infrared-kube';
import { parseManifests, serverSideApply } from './apply';
import type { ClusterInfo } from './controlPlane';

export interface ArgoCdManifestOptions {
  /** Where Argo CD's config, Applications and cluster Secrets live. Default argocd. */
  namespace: string;
  /**
   * A local account with the `apiKey` capability (argocd-cm `accounts.<name>`), bound to
   * role:readonly (argocd-rbac-cm `policy.csv`): the identity of the API token. Default infrared.
   */
  account: string;
  /**
   * A second local account with `apiKey`, allowed only `clusters, get` (role `clusters-reader`): what
   * the cluster panel's row "Argo CD sees this cluster" reads through the portal's proxy. Default
   * backstage.
   */
  panelAccount: string;
}

/** The panel account's role: Argo CD's clusters API, read only (GET /api/v1/clusters), nothing else. */
export const PANEL_ROLE = 'role:clusters-reader';

/** argocd-rbac-cm's `policy.csv`: `account` read-only, `panelAccount` only `clusters, get`. */
export function rbacPolicy(
  opts: Pick<ArgoCdManifestOptions, 'account' | 'panelAccount'>,
): string {
  return [
    `p, ${PANEL_ROLE}, clusters, get, *, allow`,
    `g, ${opts.panelAccount}, ${PANEL_ROLE}`,
    `g, ${opts.account}, role:readonly`,
    '',
  ].join('\n');
}

/** The files a kustomization.yaml lists under `resources:`, read from its folder. */
function kustomizationFiles(dir: string): string[] {
  const k = YAML.parse(
    fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'),
  );
  return (k.resources as string[]).map(f => path.join(dir, f));
}

const read = (files: string[]) =>
  files.flatMap(f => parseManifests(fs.readFileSync(f, 'utf8'))) as any[];

/**
 * Argo CD's objects from the module's own `manifests/`: the CRDs of `manifests/crds` and the config
 * of `manifests/base/config` (argocd-cm, argocd-rbac-cm, argocd-secret and the other ConfigMaps its
 * kustomization lists), placed in `namespace`. devenv adds only two settings to them: the local
 * accounts in argocd-cm and their roles in argocd-rbac-cm (rbacPolicy).
 */
export function argocdManifests(
  moduleDir: string,
  opts: ArgoCdManifestOptions,
): { crds: any[]; config: any[] } {
  const manifests = path.join(moduleDir, 'manifests');
  const crds = read(kustomizationFiles(path.join(manifests, 'crds')));
  const config = read(
    kustomizationFiles(path.join(manifests, 'base', 'config')),
  ).map(obj => {
    const out = {
      ...obj,
      metadata: { ...obj.metadata, namespace: opts.namespace },
    };
    if (obj.metadata.name === 'argocd-cm') {
      out.data = {
        ...obj.data,
        [`accounts.${opts.account}`]: 'apiKey',
        [`accounts.${opts.panelAccount}`]: 'apiKey',
      };
    }
    if (obj.metadata.name === 'argocd-rbac-cm') {
      out.data = {
        ...obj.data,
        'policy.csv': rbacPolicy(opts),
      };
    }
    return out;
  });
  return { crds, config };
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/**
 * Applies Argo CD's CRDs and config (server-side apply, as Argo CD's docs install its large CRDs),
 * waits until the API server serves the CRDs, and returns how to read the initial admin password
 * that argocd-server writes on its first start (Secret `argocd-initial-admin-secret`).
 */
export async function installArgoCdManifests(
  cluster: ClusterInfo,
  admin: KubeClient,
  moduleDir: string,
  opts: ArgoCdManifestOptions,
): Promise<{ applied: number; adminPassword: () => Promise<string> }> {
  const { crds, config } = argocdManifests(moduleDir, opts);
  await admin.createIfAbsent('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: opts.namespace },
  });
  await serverSideApply(cluster, crds);
  const wanted = crds.map(c => c.spec.names.plural as string);
  for (let i = 0; ; i++) {
    const res = await admin.request('GET', '/apis/argoproj.io/v1alpha1');
    const served: string[] =
      res.status === 200
        ? res.body.resources.map((r: { name: string }) => r.name)
        : [];
    if (wanted.every(w => served.includes(w))) break;
    if (i >= 100)
      throw new Error(
        `devenv: the API server does not serve Argo CD's CRDs (${wanted.join(
          ', ',
        )})`,
      );
    await sleep(200);
  }
  await serverSideApply(cluster, config);
  return {
    applied: crds.length + config.length,
    adminPassword: async () => {
      const res = await admin.must(
        'GET',
        `/api/v1/namespaces/${opts.namespace}/secrets/argocd-initial-admin-secret`,
      );
      return Buffer.from(res.body.data.password, 'base64').toString('utf8');
    },
  };
}
