import { authServiceFactory } from '@backstage/backend-defaults/auth';
import { httpAuthServiceFactory } from '@backstage/backend-defaults/httpAuth';
import { permissionsServiceFactory } from '@backstage/backend-defaults/permissions';
import { permissionsRegistryServiceFactory } from '@backstage/backend-defaults/permissionsRegistry';
import { userInfoServiceFactory } from '@backstage/backend-defaults/userInfo';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { eventsServiceFactory } from '@backstage/plugin-events-node';
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import { SerialScheduler } from '../../../../../plugins/infrared-backend/src/clusters/__testUtils__/serialScheduler';
import proxyPlugin from '@backstage/plugin-proxy-backend';
import authPlugin from '@backstage/plugin-auth-backend';
import permissionPlugin from '@backstage/plugin-permission-backend';
import permissionPolicy from '../../modules/permissionPolicy';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import scaffolderEntityModel from '@backstage/plugin-catalog-backend-module-scaffolder-entity-model';
import catalogModuleInfrared from '@infrared-clusters/plugin-catalog-backend-module-infrared';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
import scaffolderModuleInfrared from '@infrared-clusters/plugin-scaffolder-backend-module-infrared';
import kubernetesPlugin from '@backstage/plugin-kubernetes-backend';
import kubernetesModuleInfrared from '@infrared-clusters/plugin-kubernetes-backend-module-infrared';
import infraredPlugin from '@infrared-clusters/plugin-infrared-backend';
import { matrixAuthProvider, MATRIX_PROVIDER } from './callers';

/** The only scheduled task the test lets run (when the API triggers it): the Cluster reconciler. */
export const CLUSTERS_TASK = 'infrared-clusters-reconcile';

/**
 * SerialScheduler that runs only the tasks it is told to: the Cluster reconciler registers the
 * test's clusters; the provisioning task never runs, so no OpenTofu Job is ever started by it.
 */
export class SelectiveScheduler extends SerialScheduler {
  constructor(private readonly allowed: ReadonlySet<string>) {
    super();
  }

  triggerTask(id: string): Promise<void> {
    return this.allowed.has(id) ? super.triggerTask(id) : Promise.resolve();
  }
}

export interface MatrixBackendOptions {
  scheduler: SerialScheduler;
  config: Record<string, unknown>;
}

/**
 * The portal's backend as packages/backend/src/index.ts adds it (less the app): the real auth
 * backend (and a test sign-in provider), the real permission backend with the portal's policy
 * module, the real permissions/auth/httpAuth/userInfo services of backend-defaults, the catalog
 * with the Infrared module, the scaffolder with the Infrared actions, the Kubernetes backend with
 * the Infrared module, the Infrared backend and the proxy.
 */
export async function startMatrixBackend(options: MatrixBackendOptions) {
  return startTestBackend({
    features: [
      authServiceFactory,
      httpAuthServiceFactory,
      permissionsServiceFactory,
      permissionsRegistryServiceFactory,
      userInfoServiceFactory,
      eventsServiceFactory,
      options.scheduler.factory(),
      mockServices.rootConfig.factory({ data: options.config as any }),
      proxyPlugin,
      authPlugin,
      matrixAuthProvider,
      permissionPlugin,
      permissionPolicy,
      catalogPlugin,
      scaffolderEntityModel,
      catalogModuleInfrared,
      scaffolderPlugin,
      scaffolderModuleInfrared,
      kubernetesPlugin,
      kubernetesModuleInfrared,
      infraredPlugin,
    ],
  });
}

export { MATRIX_PROVIDER };
