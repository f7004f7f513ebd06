import type { KubernetesRequestBody } from '@backstage/plugin-kubernetes-common';
import {
  ServerSideKubernetesAuthProvider,
  type KubernetesAuthProvidersApi,
} from '@backstage/plugin-kubernetes-react';

/**
 * The Kubernetes plugin's auth providers plus `infrared`: the clusters of
 * @infrared-clusters/plugin-kubernetes-backend-module-infrared are authenticated on the backend
 * (their credential comes from the cluster's kubeconfig Secret there), so the browser adds nothing.
 */
export class InfraredKubernetesAuthProviders
  implements KubernetesAuthProvidersApi
{
  private readonly serverSide = new ServerSideKubernetesAuthProvider();

  constructor(private readonly others: KubernetesAuthProvidersApi) {}

  decorateRequestBodyForAuth(
    authProvider: string,
    requestBody: KubernetesRequestBody,
  ): Promise<KubernetesRequestBody> {
    return authProvider === 'infrared'
      ? this.serverSide.decorateRequestBodyForAuth(requestBody)
      : this.others.decorateRequestBodyForAuth(authProvider, requestBody);
  }

  getCredentials(authProvider: string): Promise<{ token?: string }> {
    return authProvider === 'infrared'
      ? this.serverSide.getCredentials()
      : this.others.getCredentials(authProvider);
  }
}
