import {
  createApiFactory,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { InfraredApiClient } from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from './infraredApiRef';

/** Builds the typed client on Backstage's discovery and fetch APIs (so requests carry the user's token). */
export const infraredApiFactory = createApiFactory({
  api: infraredApiRef,
  deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
  factory: ({ discoveryApi, fetchApi }) =>
    new InfraredApiClient({ discoveryApi, fetchApi }),
});
