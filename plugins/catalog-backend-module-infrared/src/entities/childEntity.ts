import {
  ANNOTATION_LOCATION,
  ANNOTATION_ORIGIN_LOCATION,
  makeValidator,
  type Entity,
} from '@backstage/catalog-model';
import { INFRARED_GROUP } from '@infrared-clusters/plugin-infrared-common';
import type { DiscoveredCluster } from '@infrared-clusters/infrared-registrar';
import {
  CLUSTER_ANNOTATIONS,
  CLUSTER_ENTITY_NAMESPACE,
  INFRARED_PROVIDER_NAME,
  KUBERNETES_CLUSTER_TYPE,
  panelLinks,
  type ClusterEntityOptions,
} from './clusterEntity';

/**
 * The label `infrared.darkshift.io/type` of a registrar child's Resource (a Cluster's is its
 * spec.type: workload or management).
 *
 * @public
 */
export const CHILD_CLUSTER_TYPE = 'child';

const validator = makeValidator();

/**
 * A child cluster the registrar registered (from the Argo CD Secret it owns) as a `Resource` of
 * type `kubernetes-cluster`, marked as a child: label `infrared.darkshift.io/type: child`, tag
 * `registrar-child`, where it was found. No Kubernetes plugin annotation: the Kubernetes plugin is
 * given Registered Clusters only. Pure.
 *
 * @public
 */
export function childClusterEntity(
  child: Pick<
    DiscoveredCluster,
    'name' | 'server' | 'sourceNamespace' | 'provider' | 'state'
  >,
  options: ClusterEntityOptions,
): Entity {
  const { name } = child;
  const location = `${INFRARED_PROVIDER_NAME}:${name}`;
  const annotations: Record<string, string> = {
    [ANNOTATION_LOCATION]: location,
    [ANNOTATION_ORIGIN_LOCATION]: location,
    [CLUSTER_ANNOTATIONS.cluster]: name,
    [CLUSTER_ANNOTATIONS.discoveredFrom]: child.sourceNamespace,
    [CLUSTER_ANNOTATIONS.registrarState]: child.state,
  };
  if (child.server) annotations[CLUSTER_ANNOTATIONS.argoServer] = child.server;
  if (child.provider) {
    annotations[CLUSTER_ANNOTATIONS.registrarProvider] = child.provider;
  }
  const labels: Record<string, string> = {
    [`${INFRARED_GROUP}/type`]: CHILD_CLUSTER_TYPE,
  };
  if (child.provider && validator.isValidLabelValue(child.provider)) {
    labels[`${INFRARED_GROUP}/provider`] = child.provider;
  }
  const found = child.sourceNamespace
    ? ` in namespace ${child.sourceNamespace}`
    : '';
  const by = child.provider ? ` (${child.provider})` : '';
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name,
      namespace: CLUSTER_ENTITY_NAMESPACE,
      description: `child cluster${by} the registrar found${found} and registered with Argo CD${
        child.state === 'demoted' ? ' (demoted: superseded by a rename)' : ''
      }`,
      labels,
      annotations,
      ...panelLinks(name, options),
      tags: [
        'registrar-child',
        ...(child.provider && validator.isValidTag(child.provider)
          ? [child.provider]
          : []),
      ],
    },
    spec: {
      type: KUBERNETES_CLUSTER_TYPE,
      owner: options.owner,
      ...(options.system ? { system: options.system } : {}),
    },
  };
}
