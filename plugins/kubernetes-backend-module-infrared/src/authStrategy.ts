import type {
  AuthenticationStrategy,
  AuthMetadata,
  ClusterDetails,
  KubernetesCredential,
} from '@backstage/plugin-kubernetes-node';
import {
  INFRARED_CLUSTER_METADATA,
  type RegisteredClusters,
} from './registeredClusters';

/**
 * The credential of an Infrared cluster at request time, from its kubeconfig Secret (a bearer token
 * or a client certificate) or, for an inCluster cluster, the backend's own identity. Nothing of it
 * is in the ClusterDetails, the config, or what `/clusters` presents to the frontend.
 */
export class InfraredAuthStrategy implements AuthenticationStrategy {
  constructor(private readonly clusters: RegisteredClusters) {}

  getCredential(clusterDetails: ClusterDetails): Promise<KubernetesCredential> {
    return this.clusters.credential(
      clusterDetails.authMetadata[INFRARED_CLUSTER_METADATA] ??
        clusterDetails.name,
    );
  }

  validateCluster(authMetadata: AuthMetadata): Error[] {
    return authMetadata[INFRARED_CLUSTER_METADATA]
      ? []
      : [
          new Error(
            `a cluster with authProvider infrared needs authMetadata ${INFRARED_CLUSTER_METADATA}: the name of its Cluster resource`,
          ),
        ];
  }

  presentAuthMetadata(): AuthMetadata {
    return {};
  }
}
