import { createRouteRef } from '@backstage/frontend-plugin-api';

/** The Clusters page. */
export const rootRouteRef = createRouteRef();
