import { createBackend } from '@backstage/backend-defaults';
import { permissionModuleInfraredPlatformAdmins } from '@infrared-clusters/plugin-infrared-backend';

const backend = createBackend();

backend.add(import('@backstage/plugin-app-backend'));
backend.add(import('@backstage/plugin-proxy-backend'));

backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));
// Production sign-in (auth.providers.github in app-config.production.yaml); idle without that config.
backend.add(import('@backstage/plugin-auth-backend-module-github-provider'));

backend.add(import('@backstage/plugin-catalog-backend'));
backend.add(
  import('@backstage/plugin-catalog-backend-module-scaffolder-entity-model'),
);
// Each Cluster as a Resource of type kubernetes-cluster; Products dependsOn the clusters they use.
backend.add(
  import('@infrared-clusters/plugin-catalog-backend-module-infrared'),
);

backend.add(import('@backstage/plugin-permission-backend'));
// Infrared's platform-admin policy (infrared.platformAdmins), allowing every other permission.
backend.add(permissionModuleInfraredPlatformAdmins);

backend.add(import('@backstage/plugin-scaffolder-backend'));
backend.add(
  import('@infrared-clusters/plugin-scaffolder-backend-module-infrared'),
);
backend.add(import('@backstage/plugin-kubernetes-backend'));
// Every Registered Cluster in the Kubernetes plugin, credentials from its kubeconfig Secret.
backend.add(
  import('@infrared-clusters/plugin-kubernetes-backend-module-infrared'),
);

backend.add(import('@infrared-clusters/plugin-infrared-backend'));

backend.start();
