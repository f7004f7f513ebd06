import type {
  ClusterCondition,
  ClusterView,
} from '@infrared-clusters/plugin-infrared-common';

const TWO_HOURS_AGO = new Date(
  Date.now() - 2 * 3_600_000 - 600_000,
).toISOString();

export function condition(
  type: string,
  status: ClusterCondition['status'],
  reason: string,
  message = `${type} is ${status}`,
): ClusterCondition {
  return {
    type,
    status,
    reason,
    message,
    lastTransitionTime: TWO_HOURS_AGO,
    observedGeneration: 1,
  };
}

/** A workload cluster that finished registering. */
export function registered(
  name: string,
  extra: Partial<ClusterView> = {},
): ClusterView {
  return {
    name,
    type: 'workload',
    flavor: 'k3s',
    provider: 'aws',
    region: 'us-east-1',
    connection: 'kubeconfig',
    conditions: [
      condition(
        'Connected',
        'True',
        'Connected',
        'Reached v1.31.2 with 3 nodes',
      ),
      condition('Registered', 'True', 'Merged', 'Merged pull request #7'),
    ],
    kubernetesVersion: 'v1.31.2',
    nodes: 3,
    argoSecret: `cluster-${name}`,
    argoServer: 'https://203.0.113.10:6443',
    gitopsPath: `registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`,
    pullRequest: {
      url: 'https://github.com/acme/gitops/pull/7',
      number: 7,
      merged: true,
    },
    createdAt: TWO_HOURS_AGO,
    ...extra,
  };
}

export const management: ClusterView = registered('infrared-mgmt', {
  type: 'management',
  connection: 'inCluster',
  flavor: undefined,
  provider: 'local',
  region: undefined,
  argoSecret: undefined,
  argoServer: 'https://kubernetes.default.svc',
  gitopsPath: undefined,
  pullRequest: undefined,
});

/** A workload cluster whose API server can't be reached. */
export const unreachable: ClusterView = registered('edge-down', {
  conditions: [
    condition(
      'Connected',
      'False',
      'Unreachable',
      'dial tcp 203.0.113.99:6443: connect: connection refused',
    ),
    condition(
      'Registered',
      'Unknown',
      'WaitingForConnected',
      'Waits for Connected',
    ),
  ],
  kubernetesVersion: undefined,
  nodes: undefined,
  argoSecret: undefined,
  argoServer: undefined,
  gitopsPath: undefined,
  pullRequest: undefined,
});

/** A child cluster the registrar found. */
export const discovered: ClusterView = registered('child-a', {
  discovered: { sourceNamespace: 'team-a' },
  connection: 'none',
});

export const TOKEN_KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: edge
  cluster:
    server: https://203.0.113.10:6443
    certificate-authority-data: Q0EtUEVN
users:
- name: edge-admin
  user:
    token: secret-token-value
contexts:
- name: edge-ctx
  context: {cluster: edge, user: edge-admin}
current-context: edge-ctx
`;

export const EXEC_KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: eks
  cluster:
    server: https://ABC.gr7.us-east-1.eks.amazonaws.com
    certificate-authority-data: Q0EtUEVN
users:
- name: eks-user
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: aws
      args: [eks, get-token, --cluster-name, prod]
contexts:
- name: eks
  context: {cluster: eks, user: eks-user}
current-context: eks
`;
