import { SignInPage } from '@backstage/core-components';
import { SignInPageBlueprint } from '@backstage/plugin-app-react';

/**
 * The guest sign-in page, as the app plugin's default one, but imported statically: the default
 * imports all of core-components on demand (~600 KB of chunks, material-table included), which a
 * cold load then waits for before it can sign in (bench/ui).
 */
export const GuestSignInPage = SignInPageBlueprint.make({
  params: {
    loader: async () => props =>
      <SignInPage {...props} providers={['guest']} />,
  },
});
