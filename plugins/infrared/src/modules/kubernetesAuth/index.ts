import {
  ApiBlueprint,
  createFrontendModule,
  gitlabAuthApiRef,
  googleAuthApiRef,
  microsoftAuthApiRef,
  oktaAuthApiRef,
  oneloginAuthApiRef,
} from '@backstage/frontend-plugin-api';
import {
  KubernetesAuthProviders,
  kubernetesAuthProvidersApiRef,
} from '@backstage/plugin-kubernetes-react';
import { InfraredKubernetesAuthProviders } from './InfraredKubernetesAuthProviders';

/**
 * Replaces the Kubernetes plugin's `auth-providers` API with the same providers plus `infrared`, the
 * auth provider the clusters of `@infrared-clusters/plugin-kubernetes-backend-module-infrared` name
 * (authenticated on the backend); without it the Kubernetes tab refuses them ("has no
 * KubernetesAuthProvider defined for it"). Add it to the app's features beside the Kubernetes plugin.
 *
 * @alpha
 */
export const infraredKubernetesAuthModule = createFrontendModule({
  pluginId: 'kubernetes',
  extensions: [
    ApiBlueprint.make({
      name: 'auth-providers',
      params: defineParams =>
        defineParams({
          api: kubernetesAuthProvidersApiRef,
          deps: {
            gitlabAuthApi: gitlabAuthApiRef,
            googleAuthApi: googleAuthApiRef,
            microsoftAuthApi: microsoftAuthApiRef,
            oktaAuthApi: oktaAuthApiRef,
            oneloginAuthApi: oneloginAuthApiRef,
          },
          factory: deps =>
            new InfraredKubernetesAuthProviders(
              new KubernetesAuthProviders({
                microsoftAuthApi: deps.microsoftAuthApi,
                googleAuthApi: deps.googleAuthApi,
                oidcProviders: {
                  gitlab: deps.gitlabAuthApi,
                  google: deps.googleAuthApi,
                  microsoft: deps.microsoftAuthApi,
                  okta: deps.oktaAuthApi,
                  onelogin: deps.oneloginAuthApi,
                },
              }),
            ),
        }),
    }),
  ],
});
