export interface Config {
  app?: {
    signIn?: {
      /**
       * The sign-in page's providers, in order: `guest` (the default: `[guest]`) and `github`
       * (`auth.providers.github` on the backend, as app-config.production.yaml sets it).
       * @visibility frontend
       */
      providers?: Array<'guest' | 'github'>;
    };
  };
}
