import { githubAuthApiRef } from '@backstage/frontend-plugin-api';
import { GITHUB_SIGN_IN, signInProviders } from './SignInPage';

/** The one method of the config API the page reads, over a plain value of app.signIn.providers. */
const config = (providers?: string[]) => ({
  getOptionalStringArray: (key: string) =>
    key === 'app.signIn.providers' ? providers : undefined,
});

describe('the sign-in page providers', () => {
  it('is the guest when app.signIn.providers is unset (app-config.yaml)', () => {
    expect(signInProviders(config())).toEqual(['guest']);
  });

  // app-config.production.yaml's value (checked there by packages/backend's githubSignIn test)
  it('is GitHub with [github], through the GitHub auth API', () => {
    expect(signInProviders(config(['github']))).toEqual([GITHUB_SIGN_IN]);
    expect(GITHUB_SIGN_IN.apiRef).toBe(githubAuthApiRef);
    expect(signInProviders(config(['github', 'guest']))).toEqual([
      GITHUB_SIGN_IN,
      'guest',
    ]);
  });

  it('refuses a provider it does not know', () => {
    expect(() => signInProviders(config(['gitlab']))).toThrow(
      "app.signIn.providers: unknown provider 'gitlab' (guest or github)",
    );
  });
});
