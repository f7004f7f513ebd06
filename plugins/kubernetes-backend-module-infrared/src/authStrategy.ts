import type {
  AuthenticationStrategy,
  AuthMetadata,
  ClusterDetails,
  KubernetesCredential,
} from '@backstage/plugin-kubernetes-node';
import type { ProxyGate } from './proxyGate';
import {
  INFRARED_CLUSTER_METADATA,
  type RegisteredClusters,
} from './registeredClusters';

/**
 * The credential of an Infrared cluster at request time, from its viewer kubeconfig Secret or else
 * its kubeconfig Secret (a bearer token or a client certificate); never the backend's own identity.
 * Nothing of it is in the ClusterDetails, the config, or what `/clusters` presents to the frontend.
 * Inside a proxy request, a cluster the proxy may not reach gets no credential (`ProxyGate`).
 */
export class InfraredAuthStrategy implements AuthenticationStrategy {
  constructor(
    private readonly clusters: RegisteredClusters,
    private readonly gate?: Pick<ProxyGate, 'refusal'>,
  ) {}

  async getCredential(
    clusterDetails: ClusterDetails,
  ): Promise<KubernetesCredential> {
    const name =
      clusterDetails.authMetadata[INFRARED_CLUSTER_METADATA] ??
      clusterDetails.name;
    const refused = this.gate?.refusal(name);
    if (refused) throw refused;
    return this.clusters.credential(name);
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
