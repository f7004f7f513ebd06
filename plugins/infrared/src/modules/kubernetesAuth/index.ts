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
 * auth provider Infrared's clusters name; without it the Kubernetes tab refuses them ("has no
 * KubernetesAuthProvider defined for it").
 */
export const kubernetesAuthModule = createFrontendModule({
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
