import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import {
  authProvidersExtensionPoint,
  createProxyAuthenticator,
  createProxyAuthProviderFactory,
} from '@backstage/plugin-auth-node';
import type { Caller } from '../matrix';

/** The test's sign-in provider of the real auth backend (`auth.providers.matrix`). */
export const MATRIX_PROVIDER = 'matrix';

/**
 * A sign-in provider for the test only: the real auth backend issues a user token (signed with its
 * keys, verified by the real auth service, ownership read by the real userInfo service) for the
 * user and groups the request names. What a production sign-in resolver does after the login:
 * `ctx.issueToken({ claims: { sub, ent } })`.
 */
export const matrixAuthProvider = createBackendModule({
  pluginId: 'auth',
  moduleId: 'permission-matrix-provider',
  register(reg) {
    reg.registerInit({
      deps: {
        providers: authProvidersExtensionPoint,
        config: coreServices.rootConfig,
      },
      async init({ providers }) {
        providers.registerProvider({
          providerId: MATRIX_PROVIDER,
          factory: createProxyAuthProviderFactory({
            authenticator: createProxyAuthenticator({
              defaultProfileTransform: async () => ({ profile: {} }),
              initialize: () => undefined,
              async authenticate({ req }) {
                const user = String(req.header('x-matrix-user') ?? '');
                const groups = String(req.header('x-matrix-groups') ?? '')
                  .split(',')
                  .filter(Boolean);
                return { result: { user, groups } };
              },
            }),
            signInResolver: async ({ result }, ctx) =>
              ctx.issueToken({
                claims: {
                  sub: result.user,
                  ent: [result.user, ...result.groups],
                },
              }),
          }),
        });
      },
    });
  },
});

/** Who each signed-in caller is: their user ref and the groups they are a member of. */
export const IDENTITIES: Record<
  Exclude<Caller, 'anonymous' | 'external'>,
  { user: string; groups: string[] }
> = {
  user: { user: 'user:default/una', groups: ['group:default/team-a'] },
  orgAdmin: { user: 'user:default/olga', groups: ['group:default/acme-leads'] },
  platformAdmin: {
    user: 'user:default/ada',
    groups: ['group:default/platform-admins'],
  },
};

/** Signs a caller in through the real auth backend: the Backstage token its browser would hold. */
export async function signIn(
  base: string,
  identity: { user: string; groups: string[] },
): Promise<string> {
  const res = await fetch(`${base}/api/auth/${MATRIX_PROVIDER}/refresh`, {
    method: 'POST',
    headers: {
      'x-matrix-user': identity.user,
      'x-matrix-groups': identity.groups.join(','),
      'x-requested-with': 'XMLHttpRequest',
    },
  });
  const body = await res.json();
  const token = body?.backstageIdentity?.token;
  if (res.status !== 200 || typeof token !== 'string') {
    throw new Error(
      `sign-in of ${identity.user} answered ${res.status}: ${JSON.stringify(
        body,
      )}`,
    );
  }
  return token;
}
