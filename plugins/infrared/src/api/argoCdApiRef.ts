import { createApiRef } from '@backstage/frontend-plugin-api';
import type { ArgoCdApi } from '../argocd/types';

/**
 * Argo CD's API through Backstage's proxy (`ArgoCdClient`), for the panel's Argo CD row.
 *
 * @public
 */
export const argoCdApiRef = createApiRef<ArgoCdApi>().with({
  id: 'plugin.infrared.argocd',
  pluginId: 'infrared',
});
