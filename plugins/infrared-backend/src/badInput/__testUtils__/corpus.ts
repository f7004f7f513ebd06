import fs from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';

/** One bad request and what its answer must be. */
export interface BadInputCase {
  /** `<file>/<id>`, unique. */
  id: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** Under /api/infrared, with $NAME, $ORG, $NS and $PRODUCT still in it. */
  path: string;
  /** A JSON body, or */
  body?: unknown;
  /** the raw body text or bytes, sent with `contentType`. */
  raw?: string | Buffer;
  contentType?: string;
  /** The 4xx the answer must have. */
  status: number;
  /** What the answer's error message must name. */
  field: string;
}

/** Every credential in the corpus holds this; no answer may. */
export const CANARY = 'leak-canary';

const CASES = path.join(__dirname, '..', 'cases');

/** The kubeconfig every case of cases/kubeconfigs.yaml changes one thing of (alone, it is valid). */
const BASE: Record<string, unknown> = {
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [
    {
      name: 'c',
      cluster: {
        server: 'https://127.0.0.1:6443',
        'certificate-authority-data': 'Q0EtUEVN',
      },
    },
  ],
  users: [{ name: 'u', user: { token: `${CANARY}-base-token` } }],
  contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
  'current-context': 'x',
};

function load(file: string): Array<Record<string, any>> {
  return parse(fs.readFileSync(path.join(CASES, file), 'utf8'));
}

function kubeconfigOf(entry: Record<string, any>): string {
  if (typeof entry.text === 'string') return entry.text;
  const doc: Record<string, any> = structuredClone(BASE);
  if (entry.user !== undefined) doc.users[0].user = entry.user;
  if (entry.cluster !== undefined) doc.clusters[0].cluster = entry.cluster;
  for (const [key, value] of Object.entries(entry.top ?? {})) {
    if (value === '__delete__') delete doc[key];
    else doc[key] = value;
  }
  return stringify(doc);
}

function kubeconfigCases(): BadInputCase[] {
  return load('kubeconfigs.yaml').map(entry => ({
    id: `kubeconfigs/${entry.id}`,
    method: 'post',
    path: '/v1/clusters',
    body: { name: '$NAME', kubeconfig: kubeconfigOf(entry) },
    status: entry.status ?? 400,
    field: entry.field,
  }));
}

function bodyCases(file: string): BadInputCase[] {
  return load(file).map(entry => ({
    id: `${file.replace(/\.yaml$/, '')}/${entry.id}`,
    method: entry.method ?? 'post',
    path: entry.path ?? '/v1/clusters',
    ...(entry.raw !== undefined
      ? { raw: entry.raw, contentType: entry.contentType ?? 'application/json' }
      : { body: entry.body }),
    status: entry.status ?? 400,
    field: entry.field,
  }));
}

/** A path segment as a client that means it sends it: every reserved character and dot encoded. */
export function segment(name: string): string {
  return encodeURIComponent(name).replace(/\./g, '%2E');
}

/**
 * Whether a name breaks every Kubernetes name rule (label and subdomain, any length limit from 42
 * to 253): then it is also a bad organization, namespace, Product and zone name.
 */
function breaksEveryNameRule(name: string): boolean {
  return (
    /[^-a-z0-9.]/.test(name) ||
    /^[-.]|[-.]$|\.\.|^$/.test(name) ||
    name.length > 253
  );
}

/** One route a bad name is sent to: id suffix, method, path, status, field and body. */
type NameRoute = [
  string,
  BadInputCase['method'],
  string,
  number,
  string,
  unknown?,
];

/** Each bad name where a cluster name goes, and where an organization's name goes. */
function nameCases(): BadInputCase[] {
  return load('names.yaml').flatMap(entry => {
    const name: string = entry.name;
    const at = segment(name);
    const routes: NameRoute[] = [
      [
        'register',
        'post',
        '/v1/clusters',
        400,
        'name',
        { name, inCluster: true },
      ],
      [
        'allowlist-entry',
        'put',
        '/v1/orgs/$ORG/cluster-allowlist',
        400,
        'clusters[0]',
        { clusters: [name] },
      ],
    ];
    // "" is the zone's way of naming the management cluster
    if (name !== '') {
      routes.push([
        'zone-cluster',
        'put',
        '/v1/products/$NS/$PRODUCT/zones/prod/cluster',
        400,
        'cluster',
        { cluster: name },
      ]);
    }
    if (entry.paths !== false) {
      routes.push(
        ['get', 'get', `/v1/clusters/${at}`, 404, 'name'],
        ['delete', 'delete', `/v1/clusters/${at}`, 400, 'name'],
        [
          'provision-action',
          'put',
          `/v1/clusters/${at}/provision/action`,
          400,
          'name',
          { action: 'plan' },
        ],
        [
          'provision-log',
          'get',
          `/v1/clusters/${at}/provision/log`,
          404,
          'name',
        ],
      );
    }
    if (entry.paths !== false && breaksEveryNameRule(name)) {
      routes.push(
        ['org-get', 'get', `/v1/orgs/${at}/cluster-allowlist`, 404, 'org'],
        [
          'org-put',
          'put',
          `/v1/orgs/${at}/cluster-allowlist`,
          400,
          'org',
          { clusters: [] },
        ],
        [
          'product-namespace',
          'get',
          `/v1/products/${at}/$PRODUCT/placement`,
          404,
          'namespace',
        ],
        [
          'product-name',
          'get',
          `/v1/products/$NS/${at}/placement`,
          404,
          'name',
        ],
        [
          'zone-path',
          'put',
          `/v1/products/$NS/$PRODUCT/zones/${at}/cluster`,
          400,
          'zone',
          { cluster: 'edge' },
        ],
      );
    }
    return routes.map(([suffix, method, url, status, field, body]) => ({
      id: `names/${entry.id}/${suffix}`,
      method,
      path: url,
      status,
      field,
      ...(body === undefined ? {} : { body }),
    }));
  });
}

/** The cases in cases/: kubeconfigs, bodies, provisioning and names. */
export function fileCases(): BadInputCase[] {
  return [
    ...kubeconfigCases(),
    ...bodyCases('bodies.yaml'),
    ...bodyCases('provisioning.yaml'),
    ...nameCases(),
  ];
}
