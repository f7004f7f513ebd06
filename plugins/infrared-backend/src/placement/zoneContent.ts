/**
 * What a zone's Application syncs: the file the release gate writes in the zone's directory
 * (`products/<product>/zones/<zone>/`), in the same gitops change as the zone Application. Its
 * objects are ones Argo CD's health check calls Healthy without a kubelet: a ConfigMap
 * `<product>-release` recording the Release (so each Release changes the content Argo CD syncs) and
 * a ClusterIP Service `<product>` in front of the Product's Pods, both in the zone's namespace.
 */
import {
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  zoneEnvironment,
  zoneValuesPath,
  type ProductZone,
} from '@infrared-clusters/plugin-infrared-common';
import { stringify } from 'yaml';
import { PRODUCT_LABEL, ZONE_LABEL, zoneSourcePath } from './application';
import { zoneObjectValidator, type ApplicationValidator } from './argoModels';

/** The file the gate writes in the zone's directory. */
export const ZONE_CONTENT_FILE = 'release.yaml';

/** The Release a zone's content and Application record. */
export interface ZoneRelease {
  namespace: string;
  name: string;
  version?: string;
  image?: string;
  commit?: string;
}

export interface ZoneContentOptions {
  product: { namespace: string; name: string };
  zone: ProductZone;
  release: ZoneRelease;
}

/** A zone's content that Kubernetes' schema or its naming rules refuse. */
export class InvalidZoneContentError extends Error {
  constructor(path: string, problems: string) {
    super(`the zone's content ${path} is not valid: ${problems}`);
    this.name = 'InvalidZoneContentError';
  }
}

/** Where the gate writes the zone's content: `<zone directory>/release.yaml`. */
export function zoneContentPath(
  productName: string,
  zone: ProductZone,
): string {
  return `${zoneSourcePath(productName, zone)}/${ZONE_CONTENT_FILE}`;
}

const DNS_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

/** The ConfigMap and the Service of the zone, as objects (namespace: the Application's destination). */
export function buildZoneContent(options: ZoneContentOptions): any[] {
  const { product, zone, release } = options;
  const labels: Record<string, string> = {
    [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED,
    'app.kubernetes.io/name': product.name,
    'app.kubernetes.io/instance': zone.name,
    [PRODUCT_LABEL]: product.name,
    [ZONE_LABEL]: zone.name,
  };
  if (release.version && LABEL_VALUE.test(release.version)) {
    labels['app.kubernetes.io/version'] = release.version;
  }
  const data: Record<string, string> = {
    product: `${product.namespace}/${product.name}`,
    zone: zone.name,
    environment: zoneEnvironment(zone),
    release: `${release.namespace}/${release.name}`,
  };
  if (release.version) data.version = release.version;
  if (release.image) data.image = release.image;
  if (release.commit) data.commit = release.commit;
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${product.name}-release`, labels },
      data,
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: product.name, labels },
      spec: {
        type: 'ClusterIP',
        selector: {
          'app.kubernetes.io/name': product.name,
          'app.kubernetes.io/instance': zone.name,
        },
        ports: [
          { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
        ],
      },
    },
  ];
}

/** What is wrong with the names the content derives from the Product and the zone, or undefined. */
function namingProblem(options: ZoneContentOptions): string | undefined {
  const { product, zone } = options;
  if (!DNS_LABEL.test(product.name)) {
    return `the Service is named after the Product, and "${product.name}" is not a DNS-1035 label (at most 63 lowercase letters, digits and hyphens, starting with a letter)`;
  }
  if (
    zoneValuesPath(product.name, zone) === zoneContentPath(product.name, zone)
  ) {
    return `the zone's valuesPath "${zoneValuesPath(
      product.name,
      zone,
    )}" is the file the release gate writes the zone's content to; choose another file name`;
  }
  return undefined;
}

/**
 * The zone's content file: its objects checked against Kubernetes' schema (kubernetes-models) and
 * the naming rules, then rendered with the yaml library as one multi-document file. Throws
 * InvalidZoneContentError when refused.
 */
export function renderZoneContent(
  options: ZoneContentOptions,
  validate: ApplicationValidator = zoneObjectValidator(),
): string {
  const path = zoneContentPath(options.product.name, options.zone);
  const naming = namingProblem(options);
  if (naming) throw new InvalidZoneContentError(path, naming);
  const objects = buildZoneContent(options);
  for (const object of objects) {
    const problems = validate(object);
    if (problems) {
      throw new InvalidZoneContentError(
        path,
        `${object.kind} ${object.metadata.name}: ${problems}`,
      );
    }
  }
  const header = `# Zone ${options.zone.name} of Product ${options.product.namespace}/${options.product.name} at Release ${options.release.namespace}/${options.release.name}, written by Infrared's release gate with the zone's Application.\n`;
  return `${header}${objects.map(o => stringify(o)).join('---\n')}`;
}
