import type { SchedulerServiceTaskScheduleDefinitionConfig } from '@backstage/backend-plugin-api';

export interface Config {
  catalog?: {
    providers?: {
      /** The Infrared clusters entity provider: each Cluster as a Resource of type kubernetes-cluster. */
      infrared?: {
        /** The Resources' `spec.owner`. Default group:default/platform-admins. */
        owner?: string;
        /** The Resources' `spec.system`, when they belong to one. */
        system?: string;
        /**
         * The Clusters page's URL: each Resource links its cluster's panel, `<clustersPageUrl>/<name>`.
         * Default `<app.baseUrl>/clusters`.
         */
        clustersPageUrl?: string;
        /**
         * When the full mutation runs (every Cluster read with one LIST and given to the catalog).
         * Default every 5 minutes; an API write is given at once by a delta mutation.
         */
        schedule?: SchedulerServiceTaskScheduleDefinitionConfig;
      };
    };
  };
}
