import { stringify } from 'yaml';

export interface RegistryApplicationOptions {
  /** The registered (workload) cluster. */
  clusterName: string;
  /** The cluster whose Argo CD runs the app-of-apps. */
  managementCluster: string;
  /** The gitops repository as Argo CD clones it. */
  repoUrl: string;
  /** The default branch of the gitops repository. */
  branch: string;
}

/** Where the cluster's own components live in the gitops repository. */
export function clusterComponentsPath(clusterName: string): string {
  return `registry/clusters/${clusterName}/components`;
}

/** The app-of-apps file that registers a cluster, in the management cluster's components. */
export function appOfAppsPath(
  clusterName: string,
  managementCluster: string,
): string {
  return `${clusterComponentsPath(
    managementCluster,
  )}/cluster-${clusterName}.yaml`;
}

/**
 * The Argo CD Application `registry-<name>`: an app-of-apps on the management cluster that syncs
 * everything under the registered cluster's components directory.
 */
export function buildRegistryApplication(
  options: RegistryApplicationOptions,
): string {
  return clusterApplication(options, {
    name: `registry-${options.clusterName}`,
    annotations: { 'argocd.argoproj.io/sync-wave': '50' },
    path: clusterComponentsPath(options.clusterName),
    destination: {
      server: 'https://kubernetes.default.svc',
      namespace: 'argocd',
    },
  });
}

/** The labels of everything registration writes for a cluster. */
const clusterLabels = (clusterName: string) => ({
  'app.kubernetes.io/managed-by': 'infrared',
  'infrared.darkshift.io/cluster': clusterName,
});

/** An Application in namespace argocd of project default that syncs `path` of the gitops repository. */
function clusterApplication(
  options: RegistryApplicationOptions,
  app: {
    name: string;
    annotations?: Record<string, string>;
    path: string;
    destination: Record<string, string>;
    syncOptions?: string[];
  },
): string {
  return stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name: app.name,
      namespace: 'argocd',
      ...(app.annotations ? { annotations: app.annotations } : {}),
      labels: clusterLabels(options.clusterName),
    },
    spec: {
      project: 'default',
      source: {
        repoURL: options.repoUrl,
        targetRevision: options.branch,
        path: app.path,
      },
      destination: app.destination,
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        ...(app.syncOptions ? { syncOptions: app.syncOptions } : {}),
      },
    },
  });
}

/** Where the cluster's Infrared component (a ConfigMap for the cluster itself) lives. */
export function clusterInfoPath(clusterName: string): string {
  return `registry/clusters/${clusterName}/infrared`;
}

/** The namespace, on the registered cluster, of the ConfigMap `infrared-cluster`. */
export const CLUSTER_INFO_NAMESPACE = 'infrared-system';

/**
 * The Argo CD Application `infrared-<name>` (file `components/infrared.yaml`): the one Application that
 * registration makes target the registered cluster (destination by the name of its Argo CD cluster
 * Secret), so that Argo CD monitors it (`connectionState: Successful`) before any zone lands there.
 * It syncs `registry/clusters/<name>/infrared/`, one ConfigMap that Argo CD calls Healthy without a
 * kubelet. No resources finalizer: deleting the Application deletes nothing on the workload cluster.
 */
export function buildClusterInfoApplication(
  options: RegistryApplicationOptions,
): string {
  return clusterApplication(options, {
    name: `infrared-${options.clusterName}`,
    path: clusterInfoPath(options.clusterName),
    destination: {
      name: options.clusterName,
      namespace: CLUSTER_INFO_NAMESPACE,
    },
    syncOptions: ['CreateNamespace=true'],
  });
}

/** The ConfigMap `infrared-cluster` the Application `infrared-<name>` keeps on the registered cluster. */
export function buildClusterInfoConfigMap(
  options: RegistryApplicationOptions,
): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'infrared-cluster',
      namespace: CLUSTER_INFO_NAMESPACE,
      labels: clusterLabels(options.clusterName),
    },
    data: {
      cluster: options.clusterName,
      managementCluster: options.managementCluster,
    },
  });
}

export function buildClusterRegistryReadme(clusterName: string): string {
  return `# Components of cluster ${clusterName}

Argo CD on the management cluster syncs this directory through the Application
\`registry-${clusterName}\` (namespace \`argocd\`), which Infrared added when the cluster was registered.

Put Argo CD Applications here that should be deployed for \`${clusterName}\`; Infrared adds one file per zone
(\`product-<zone>.yaml\`). Files removed from this directory are pruned.

\`infrared.yaml\` is the Application \`infrared-${clusterName}\`, written at registration: it keeps the ConfigMap
\`${CLUSTER_INFO_NAMESPACE}/infrared-cluster\` (\`../infrared/\`) on the cluster, so that Argo CD monitors the
cluster from its registration on, before any zone targets it.
`;
}

/** The files one cluster registration adds to the gitops repository, by path. */
export function registrationFiles(
  options: RegistryApplicationOptions,
): Record<string, string> {
  const { clusterName, managementCluster } = options;
  return {
    [appOfAppsPath(clusterName, managementCluster)]:
      buildRegistryApplication(options),
    [`${clusterComponentsPath(clusterName)}/README.md`]:
      buildClusterRegistryReadme(clusterName),
    [`${clusterComponentsPath(clusterName)}/infrared.yaml`]:
      buildClusterInfoApplication(options),
    [`${clusterInfoPath(clusterName)}/cluster-info.yaml`]:
      buildClusterInfoConfigMap(options),
  };
}
