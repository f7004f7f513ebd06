/**
 * Values of the Cluster fields with the verdict of -common's rule set (CLUSTER_FIELD_RULES).
 * The API's validator, openapi.yaml and the Cluster CRD must each give that verdict, except
 * where `api` says the API alone refuses more, and why: a pattern cannot state those checks.
 */
export type Verdict = 'accept' | 'refuse';

export type SampledField = 'name' | 'flavor' | 'provider' | 'region' | 'server';

export interface RuleSample {
  field: SampledField;
  value: string;
  rule: Verdict;
  /** The API's own verdict, when it refuses what the rule accepts. */
  api?: { verdict: Verdict; why: string };
}

const sample = (
  field: SampledField,
  rule: Verdict,
  values: string[],
): RuleSample[] => values.map(value => ({ field, value, rule }));

export const RULE_SAMPLES: RuleSample[] = [
  ...sample('name', 'accept', ['edge', 'edge-us-east-1', '0', 'e'.repeat(42)]),
  ...sample('name', 'refuse', [
    'Edge',
    '-edge',
    'edge-',
    'ed_ge',
    'edge.example',
    'e'.repeat(43),
  ]),
  ...sample('flavor', 'accept', ['k3s', 'eks']),
  ...sample('flavor', 'refuse', ['gke', 'K3S', '']),
  ...sample('provider', 'accept', ['aws', 'gcp', 'linode', 'local']),
  ...sample('provider', 'refuse', ['azure', 'AWS', '']),
  ...sample('region', 'accept', ['us-east-1', 'europe-west4', 'r'.repeat(63)]),
  ...sample('region', 'refuse', [
    'us east',
    'US-EAST-1',
    'us_east_1',
    '-us-east-1',
    'us-east-1-',
    '',
    'r'.repeat(64),
  ]),
  ...sample('server', 'accept', [
    'https://203.0.113.10:6443',
    'https://edge.example:6443',
    'https://edge.example.net:6443/',
    'https://Edge.Example',
    'https://[2001:db8::1]:6443',
    'https://rancher.example/k8s/clusters/c-m-4x7fz',
  ]),
  ...sample('server', 'refuse', [
    'http://edge.example:6443',
    'edge.example:6443',
    'HTTPS://edge.example',
    ' https://edge.example',
    'https://edge.example ',
    'https://',
    'https://:6443',
    'https://-edge.example',
    'https://edge..example',
    'https://user:secret@edge.example:6443',
    'https://edge.example:6443?insecure=true',
    'https://edge.example:6443#api',
    'https://edge.example:6443/a b',
    'https://edge.example:644300',
    '',
  ]),
  {
    field: 'server',
    value: 'https://kubernetes.default.svc',
    rule: 'accept',
    api: {
      verdict: 'refuse',
      why: 'the in-cluster address: the API takes inCluster: true for it; a Cluster made with kubectl is reported ServerInvalid',
    },
  },
  {
    field: 'server',
    value: 'https://203.0.113.999:6443',
    rule: 'accept',
    api: {
      verdict: 'refuse',
      why: 'no URL parser takes 999 in an IPv4 address; a pattern does not count',
    },
  },
  {
    field: 'server',
    value: 'https://edge.example:99999',
    rule: 'accept',
    api: {
      verdict: 'refuse',
      why: 'a port over 65535; the pattern takes five digits',
    },
  },
];
