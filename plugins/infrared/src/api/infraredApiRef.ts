import { createApiRef } from '@backstage/frontend-plugin-api';
import type { InfraredApi } from '@infrared-clusters/plugin-infrared-common';

/**
 * The Infrared REST API (clusters), implemented by `InfraredApiClient` from -common.
 *
 * @public
 */
export const infraredApiRef = createApiRef<InfraredApi>().with({
  id: 'plugin.infrared.api',
  pluginId: 'infrared',
});
