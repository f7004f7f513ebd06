import { createFrontendModule } from '@backstage/frontend-plugin-api';
import { GuestSignInPage } from './SignInPage';

export const signInModule = createFrontendModule({
  pluginId: 'app',
  extensions: [GuestSignInPage],
});
