import { SignInPage } from '@backstage/core-components';
import {
  configApiRef,
  githubAuthApiRef,
  useApi,
} from '@backstage/frontend-plugin-api';
import {
  SignInPageBlueprint,
  type SignInPageProps,
} from '@backstage/plugin-app-react';

/** The GitHub provider of the sign-in page (`auth.providers.github` on the backend). */
export const GITHUB_SIGN_IN = {
  id: 'github-auth-provider',
  title: 'GitHub',
  message: 'Sign in with your GitHub account',
  apiRef: githubAuthApiRef,
};

type SignInProvider = 'guest' | typeof GITHUB_SIGN_IN;

/**
 * The providers `app.signIn.providers` names (packages/app/config.d.ts), in order: `guest` when
 * unset (app-config.yaml), `github` in production (app-config.production.yaml).
 */
export function signInProviders(config: {
  getOptionalStringArray(key: string): string[] | undefined;
}): SignInProvider[] {
  const names = config.getOptionalStringArray('app.signIn.providers') ?? [
    'guest',
  ];
  return names.map(name => {
    if (name === 'guest') return 'guest';
    if (name === 'github') return GITHUB_SIGN_IN;
    throw new Error(
      `app.signIn.providers: unknown provider '${name}' (guest or github)`,
    );
  });
}

function ConfiguredSignInPage(props: SignInPageProps) {
  const config = useApi(configApiRef);
  return <SignInPage {...props} providers={signInProviders(config)} />;
}

/**
 * The sign-in page, as the app plugin's default one, but imported statically: the default imports
 * all of core-components on demand (~600 KB of chunks, material-table included), which a cold load
 * then waits for before it can sign in (bench/ui). Its providers come from `app.signIn.providers`.
 */
export const GuestSignInPage = SignInPageBlueprint.make({
  params: {
    loader: async () => props => <ConfiguredSignInPage {...props} />,
  },
});
