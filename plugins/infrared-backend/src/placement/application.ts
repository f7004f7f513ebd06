import type { ArgoObject } from '@infrared-clusters/infrared-kube';
import {
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  zoneValuesPath,
  type ProductZone,
  type ZoneApplicationHolder,
  type ZonePlacement,
} from '@infrared-clusters/plugin-infrared-common';
import path from 'node:path';
import { stringify } from 'yaml';
import { argoApplicationValidator } from './argoModels';
import type { ZoneRelease } from './zoneContent';

/** Labels on every zone Application (the gate LISTs Applications by the zone label). */
export const PRODUCT_LABEL = 'infrared.darkshift.io/product';
export const PRODUCT_NAMESPACE_LABEL =
  'infrared.darkshift.io/product-namespace';
export const ZONE_LABEL = 'infrared.darkshift.io/zone';
/** The Release (`<namespace>/<name>`) a zone Application file was written for. */
export const RELEASE_ANNOTATION = 'infrared.darkshift.io/release';
export const VERSION_ANNOTATION = 'infrared.darkshift.io/version';

/** The Product each zone Application was written for (its labels), by Application name. */
export function zoneApplicationHolders(
  applications: readonly ArgoObject[],
): Map<string, ZoneApplicationHolder> {
  const holders = new Map<string, ZoneApplicationHolder>();
  for (const a of applications) {
    const labels = a.metadata.labels ?? {};
    const namespace = labels[PRODUCT_NAMESPACE_LABEL];
    const name = labels[PRODUCT_LABEL];
    if (namespace && name) holders.set(a.metadata.name, { namespace, name });
  }
  return holders;
}

export interface ZoneApplicationOptions {
  product: { namespace: string; name: string };
  zone: ProductZone;
  /** The zone's decision (name, destination, project). */
  placement: Pick<ZonePlacement, 'applicationName' | 'destination' | 'project'>;
  release: ZoneRelease;
  /** The gitops repository as Argo CD clones it, and its default branch. */
  repoUrl: string;
  branch: string;
}

/** The zone's directory in the gitops repository: the folder of its values file. */
export function zoneSourcePath(productName: string, zone: ProductZone): string {
  const dir = path.posix.dirname(zoneValuesPath(productName, zone));
  return dir === '.' || dir === ''
    ? path.posix.dirname(zoneValuesPath(productName, { name: zone.name }))
    : dir;
}

/** A file name as a literal glob of Argo CD's directory include/exclude (gobwas/glob syntax). */
function literalGlob(name: string): string {
  return name.replace(/[\\*?[\]{}]/g, c => `\\${c}`);
}

/**
 * The source's `directory`: the zone's values file (reference.md B,
 * `products/<product>/zones/<zone>/values.yaml`) lives in the zone's directory but is not a
 * Kubernetes object, so Argo CD's directory source excludes it; every other YAML file of the
 * directory (the gate's `release.yaml`, anything a team adds) is synced.
 */
export function zoneSourceDirectory(
  productName: string,
  zone: ProductZone,
): { exclude: string } {
  return {
    exclude: literalGlob(
      path.posix.basename(zoneValuesPath(productName, zone)),
    ),
  };
}

/**
 * The zone's Argo CD Application `product-<zone>` (namespace argocd): it syncs the zone's directory
 * of the gitops repository to the zone's namespace on its cluster, in the zone's AppProject.
 * `source.name` is the Release (`<namespace>/<name>`): a new Release changes the Application's
 * source, so Argo CD compares it again at once ("spec.source differs") and the gate can tell a
 * status of this Release's source (`status.sync.comparedTo.source.name`) from an older one.
 */
export function buildZoneApplication(options: ZoneApplicationOptions): any {
  const { product, zone, placement, release } = options;
  const annotations: Record<string, string> = {
    [RELEASE_ANNOTATION]: `${release.namespace}/${release.name}`,
  };
  if (release.version) annotations[VERSION_ANNOTATION] = release.version;
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name: placement.applicationName,
      namespace: 'argocd',
      labels: {
        [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED,
        'app.kubernetes.io/part-of': 'infrared-gitops',
        [PRODUCT_LABEL]: product.name,
        [PRODUCT_NAMESPACE_LABEL]: product.namespace,
        [ZONE_LABEL]: zone.name,
      },
      annotations,
      finalizers: ['resources-finalizer.argocd.argoproj.io'],
    },
    spec: {
      project: placement.project,
      source: {
        name: `${release.namespace}/${release.name}`,
        repoURL: options.repoUrl,
        targetRevision: options.branch,
        path: zoneSourcePath(product.name, zone),
        directory: zoneSourceDirectory(product.name, zone),
      },
      destination: { ...placement.destination },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        syncOptions: ['CreateNamespace=true'],
      },
    },
  };
}

/** A zone Application refused by Argo CD's schema. */
export class InvalidApplicationError extends Error {
  constructor(readonly applicationName: string, problems: string) {
    super(
      `the Application ${applicationName} does not match Argo CD's schema: ${problems}`,
    );
    this.name = 'InvalidApplicationError';
  }
}

/**
 * The zone Application file's text, validated with @kubernetes-models/argo-cd first. Throws
 * InvalidApplicationError when Argo CD's schema refuses it.
 */
export function renderZoneApplication(
  options: ZoneApplicationOptions,
  validate = argoApplicationValidator(),
): string {
  const application = buildZoneApplication(options);
  const problems = validate(application);
  if (problems) {
    throw new InvalidApplicationError(application.metadata.name, problems);
  }
  const header = `# Zone ${options.zone.name} of Product ${options.product.namespace}/${options.product.name}, written by Infrared's release gate.\n`;
  return `${header}${stringify(application)}`;
}
