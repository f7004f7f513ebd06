import {
  configApiRef,
  createApiFactory,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { ArgoCdClient } from '../argocd/ArgoCdClient';
import { argoCdApiRef } from './argoCdApiRef';

/** Builds `ArgoCdClient` on discovery, fetch (the user's Backstage token) and config (the proxy path). */
export const argoCdApiFactory = createApiFactory({
  api: argoCdApiRef,
  deps: {
    discoveryApi: discoveryApiRef,
    fetchApi: fetchApiRef,
    configApi: configApiRef,
  },
  factory: ({ discoveryApi, fetchApi, configApi }) =>
    new ArgoCdClient({ discoveryApi, fetchApi, configApi }),
});
