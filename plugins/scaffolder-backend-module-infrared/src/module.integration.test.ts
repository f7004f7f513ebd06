import {
  coreServices,
  createBackendPlugin,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  scaffolderActionsExtensionPoint,
  type TemplateAction,
} from '@backstage/plugin-scaffolder-node';
import {
  createServiceAccountKubeconfig,
  ensureNamespace,
  getTestControlPlane,
  installCrds,
  KubeClient,
  serverAlias,
  uniqueName,
  type ServerAlias,
  removeTestDir,
} from '@internal/devenv';
// the real backend plugin is what this test is about: the actions go through its API
// eslint-disable-next-line @backstage/no-mixed-plugin-imports
import infraredPlugin from '@infrared-clusters/plugin-infrared-backend';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { actionContext } from './__testUtils__/fakeInfraredApi';
import { scaffolderModuleInfrared } from './module';

jest.setTimeout(180_000);

const ADMIN = 'user:default/platform-admin';
const DEVELOPER = 'user:default/developer';
const CLUSTERS = '/apis/infrared.darkshift.io/v1alpha1/clusters';

/** The CRDs as the repository ships them (the Helm chart's, or deploy/crds before it). */
function crdsDir(): string {
  const deploy = path.resolve(__dirname, '../../../deploy');
  return [
    path.join(deploy, 'helm/infrared-clusters/crds'),
    path.join(deploy, 'crds'),
  ].find(dir => fs.existsSync(dir))!;
}

/** Stands in for the scaffolder backend: takes the actions the module adds through its extension point. */
function actionsCollector(actions: Map<string, TemplateAction<any, any>>) {
  return createBackendPlugin({
    pluginId: 'scaffolder',
    register(reg) {
      reg.registerExtensionPoint(scaffolderActionsExtensionPoint, {
        addActions: (...added) =>
          added.forEach(action => actions.set(action.id, action)),
      });
      reg.registerInit({ deps: {}, async init() {} });
    },
  });
}

/** The portal's rule (packages/backend's PlatformAdminPolicy): Infrared writes are for platform admins. */
const platformAdminPermissions = createServiceFactory({
  service: coreServices.permissions,
  deps: {},
  factory: () => ({
    async authorize(requests, { credentials }) {
      const principal = credentials.principal as { userEntityRef?: string };
      return requests.map(({ permission }) => ({
        result:
          !permission.name.startsWith('infrared.') ||
          permission.attributes.action === 'read' ||
          principal.userEntityRef === ADMIN
            ? AuthorizeResult.ALLOW
            : AuthorizeResult.DENY,
      }));
    },
    async authorizeConditional(requests) {
      return requests.map(() => ({
        result: AuthorizeResult.DENY,
      }));
    },
  }),
});

/**
 * The module with the real Infrared backend plugin on the real local control plane
 * (INFRARED_DEVENV_STATE): the actions go through its REST API as the template's runner.
 */
describe('scaffolder module with the Infrared backend on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  // workload-a at an address of its own: one registration per API server (issue 23.1), and other
  // test files register workload-a at the same time
  let workload: ServerAlias;
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-scaffolder-'));
  const actions = new Map<string, TemplateAction<any, any>>();
  const created: string[] = [];
  let kubeconfig: string;

  const run = async (
    id: string,
    input: Record<string, unknown>,
    runner: string,
    secrets?: Record<string, string>,
  ) => {
    const { ctx, log } = actionContext({
      input,
      secrets,
      initiator: mockCredentials.user(runner),
    });
    await actions.get(id)!.handler(ctx as any);
    return { ctx, log };
  };

  beforeAll(async () => {
    await installCrds(management, crdsDir());
    await ensureNamespace(management, 'infrared');
    await ensureNamespace(management, 'argocd');
    workload = await serverAlias(cp, 'workload-a');
    kubeconfig = await createServiceAccountKubeconfig(workload, {
      namespace: 'infrared-it',
      name: uniqueName('scaffolder-sa'),
      // what Argo CD is usually given; Infrared's probe needs at least to list nodes
      clusterRole: 'cluster-admin',
    });
    await startTestBackend({
      features: [
        infraredPlugin,
        scaffolderModuleInfrared,
        actionsCollector(actions),
        platformAdminPermissions,
        mockServices.rootConfig.factory({
          data: {
            infrared: {
              managementCluster: { kubeconfigPath: management.kubeconfigPath },
              gitops: { type: 'local', path: path.join(tmp, 'gitops.git') },
              provisioning: { enabled: false },
            },
          },
        }),
      ],
    });
  });

  afterAll(async () => {
    for (const name of created) {
      await admin.request('DELETE', `${CLUSTERS}/${name}`);
    }
    removeTestDir(tmp);
    await workload?.close();
  });

  it('adds the three actions', () => {
    expect([...actions.keys()].sort()).toEqual([
      'infrared:cluster:build',
      'infrared:cluster:register',
      'infrared:cluster:wait',
    ]);
  });

  it('register as a platform admin makes the Cluster; wait sees it Registered with its Argo CD server', async () => {
    const name = uniqueName('scaffolded');
    created.push(name);
    const { ctx, log } = await run(
      'infrared:cluster:register',
      { name, flavor: 'k3s', provider: 'local' },
      ADMIN,
      { kubeconfig },
    );
    expect(ctx.output).toHaveBeenCalledWith('connection', 'kubeconfig');
    const token = /token: (\S+)/.exec(kubeconfig)![1];
    expect(log()).not.toContain(token);

    const cluster = await admin.must('GET', `${CLUSTERS}/${name}`);
    expect(cluster.body.spec).toMatchObject({
      type: 'workload',
      flavor: 'k3s',
      provider: 'local',
      connection: {
        kubeconfigSecretRef: { name: `cluster-${name}-kubeconfig` },
      },
    });

    const waited = await run(
      'infrared:cluster:wait',
      { name, timeoutSeconds: 90 },
      ADMIN,
    );
    expect(waited.ctx.output).toHaveBeenCalledWith(
      'argoServer',
      workload.server,
    );
    expect(waited.ctx.output).toHaveBeenCalledWith(
      'gitopsPath',
      expect.stringMatching(new RegExp(`cluster-${name}\\.yaml$`)),
    );
  });

  it('register as a developer gets the REST API refusal, and no Cluster is made', async () => {
    const name = uniqueName('refused');
    await expect(
      run('infrared:cluster:register', { name }, DEVELOPER, { kubeconfig }),
    ).rejects.toThrow(
      'Request failed with 403 Forbidden: only platform admins may register clusters (permission infrared.cluster.create)',
    );
    const res = await admin.request('GET', `${CLUSTERS}/${name}`);
    expect(res.status).toBe(404);
  });
});
