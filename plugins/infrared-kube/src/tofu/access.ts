/**
 * What one Cluster's OpenTofu Jobs may reach, and nothing more: a ServiceAccount, a Role and a
 * RoleBinding per Cluster in the Jobs' namespace, the Role naming (resourceNames) only the Cluster's
 * state Secret and lock Lease, with `get` and `update`. The executor makes the state Secret and the
 * Lease first (empty), so a Job never needs `create` (which resourceNames cannot limit) or `list`.
 * Cloud credentials reach the Job as environment (envFrom, read by the kubelet), so its identity
 * cannot read any credentials Secret through the API, not even its own.
 */
import {
  CLUSTER_KIND,
  CLUSTER_NAME_LABEL,
  INFRARED_API_VERSION,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  tofuAccessName,
  tofuStateLeaseName,
  tofuStateSecretName,
  tofuStateSuffix,
  type ClusterResource,
  type ObjectMeta,
  type OwnerReference,
} from '@infrared-clusters/plugin-infrared-common';

/** @public */
export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

/**
 * A namespaced object the executor makes for a Cluster's Jobs.
 *
 * @public
 */
export type TofuAccessObject =
  | { apiVersion: 'v1'; kind: 'ServiceAccount'; metadata: ObjectMeta }
  | {
      apiVersion: 'rbac.authorization.k8s.io/v1';
      kind: 'Role';
      metadata: ObjectMeta;
      rules: PolicyRule[];
    }
  | {
      apiVersion: 'rbac.authorization.k8s.io/v1';
      kind: 'RoleBinding';
      metadata: ObjectMeta;
      roleRef: { apiGroup: string; kind: 'Role'; name: string };
      subjects: Array<{
        kind: 'ServiceAccount';
        name: string;
        namespace: string;
      }>;
    };

/**
 * The labels OpenTofu's kubernetes backend puts on the state Secret and Lease it makes itself
 * (workspace `default`); the executor's empty ones carry the same, so `tofu workspace list` and
 * OpenTofu's own checks see them as its own.
 *
 * @public
 */
export function tofuStateLabels(cluster: string): Record<string, string> {
  return {
    tfstate: 'true',
    tfstateSecretSuffix: tofuStateSuffix(cluster),
    tfstateWorkspace: 'default',
    'app.kubernetes.io/managed-by': 'opentf',
    [CLUSTER_NAME_LABEL]: cluster,
  };
}

/**
 * The Cluster as the owner of what its Jobs use (garbage-collected with it, never blocking).
 *
 * @public
 */
export function clusterOwner(cluster: ClusterResource): OwnerReference[] {
  const { name, uid } = cluster.metadata;
  return uid
    ? [{ apiVersion: INFRARED_API_VERSION, kind: CLUSTER_KIND, name, uid }]
    : [];
}

/**
 * The ServiceAccount, Role and RoleBinding of a Cluster's Jobs, owned by the Cluster (the executor
 * adds each Job as an owner too, so they stay while a Job of a removed Cluster still runs and go
 * when the last owner is gone).
 *
 * @public
 */
export function tofuAccessObjects(
  cluster: ClusterResource,
  namespace: string,
): TofuAccessObject[] {
  const { name: clusterName, uid } = cluster.metadata;
  const name = tofuAccessName(clusterName, uid);
  const metadata = (): ObjectMeta => ({
    name,
    namespace,
    labels: {
      [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED,
      [CLUSTER_NAME_LABEL]: clusterName,
    },
    ownerReferences: clusterOwner(cluster),
  });
  const secret = tofuStateSecretName(clusterName);
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: metadata() },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: metadata(),
      rules: [
        {
          apiGroups: [''],
          resources: ['secrets'],
          verbs: ['get', 'update'],
          resourceNames: [secret],
        },
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          verbs: ['get', 'update'],
          resourceNames: [tofuStateLeaseName(clusterName)],
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: metadata(),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    },
  ];
}

/**
 * The empty state Secret and the free Lease a Cluster's Jobs keep their state and lock in, made by
 * the executor before the first Job (not owned by the Cluster: the state outlives its removal, as
 * the cloud resources do).
 *
 * @public
 */
export function tofuStateObjects(
  cluster: string,
  namespace: string,
): {
  secret: {
    apiVersion: 'v1';
    kind: 'Secret';
    type: 'Opaque';
    metadata: ObjectMeta;
  };
  lease: {
    apiVersion: 'coordination.k8s.io/v1';
    kind: 'Lease';
    metadata: ObjectMeta;
    spec: Record<string, never>;
  };
} {
  const labels = tofuStateLabels(cluster);
  return {
    secret: {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name: tofuStateSecretName(cluster),
        namespace,
        labels,
        annotations: { encoding: 'gzip' },
      },
    },
    lease: {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: tofuStateLeaseName(cluster), namespace, labels },
      spec: {},
    },
  };
}

/**
 * The Pod and container security context of every OpenTofu Job: it passes Pod Security
 * `restricted` (non-root, no privilege escalation, no capabilities, the runtime's seccomp profile).
 *
 * @public
 */
export const TOFU_POD_SECURITY_CONTEXT = {
  runAsNonRoot: true,
  runAsUser: 65532,
  runAsGroup: 65532,
  fsGroup: 65532,
  seccompProfile: { type: 'RuntimeDefault' },
} as const;

/** @public */
export const TOFU_CONTAINER_SECURITY_CONTEXT = {
  allowPrivilegeEscalation: false,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
} as const;
