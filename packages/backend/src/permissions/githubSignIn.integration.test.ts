import {
  getTestControlPlane,
  KubeClient,
  eventually,
  serverAlias,
  type ServerAlias,
  removeTestDir,
} from '@internal/devenv';
// The backend's own test set-up: deploy/ applied, the backend's ServiceAccount token.
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import { prepareManagementCluster } from '../../../../plugins/infrared-backend/src/clusters/__testUtils__/managementCluster';
import { authServiceFactory } from '@backstage/backend-defaults/auth';
import { httpAuthServiceFactory } from '@backstage/backend-defaults/httpAuth';
import { permissionsServiceFactory } from '@backstage/backend-defaults/permissions';
import { permissionsRegistryServiceFactory } from '@backstage/backend-defaults/permissionsRegistry';
import { userInfoServiceFactory } from '@backstage/backend-defaults/userInfo';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { ConfigSources, FileConfigSource } from '@backstage/config-loader';
import authPlugin from '@backstage/plugin-auth-backend';
import githubProvider from '@backstage/plugin-auth-backend-module-github-provider';
import guestProvider from '@backstage/plugin-auth-backend-module-guest-provider';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import permissionPlugin from '@backstage/plugin-permission-backend';
import { eventsServiceFactory } from '@backstage/plugin-events-node';
import infraredPlugin from '@infrared-clusters/plugin-infrared-backend';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import permissionPolicy from '../modules/permissionPolicy';
import { SelectiveScheduler } from './__testUtils__/backend';
import { PRODUCTION_CONFIG } from './__testUtils__/argoCd';
import {
  githubSignIn,
  startFakeGithub,
  userInfo,
  type GithubAccount,
} from './__testUtils__/fakeGithub';

jest.setTimeout(300_000);

const CLIENT = { id: 'test-client-id', secret: 'test-client-secret' };
const API = '/apis/infrared.darkshift.io/v1alpha1';

/** app-config.production.yaml as Backstage reads it, `${...}` substituted from `env`. */
async function productionConfig(env: Record<string, string>) {
  const config = await ConfigSources.toConfig(
    FileConfigSource.create({
      path: PRODUCTION_CONFIG,
      watch: false,
      substitutionFunc: async name => env[name],
    }),
  );
  const data = config.get<Record<string, any>>();
  config.close();
  return data;
}

/**
 * The production sign-in as shipped: app-config.production.yaml's `auth` (GitHub, the resolver by
 * the github.com/user-id annotation, no guest) and `infrared.platformAdmins`, on the real auth
 * backend with the GitHub provider module, the real catalog (Users and Groups from a file), the real
 * permission backend with the portal's policy and the Infrared backend on the devenv control plane.
 * GitHub is a loopback fake of GitHub Enterprise's OAuth endpoints (`enterpriseInstanceUrl`).
 */
describe('GitHub sign-in (app-config.production.yaml) and the platform-admin groups', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  // workload-a at an address of its own: one registration per API server (issue 23.1), and other
  // test files register workload-a at the same time
  let workload: ServerAlias | undefined;
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  const run = `gh-${Date.now().toString(36)}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'github-sign-in-'));
  const accounts: GithubAccount[] = [
    { login: 'ada-gh', id: 1001, node_id: 'U_kgDOada', name: 'Ada' },
    { login: 'una-gh', id: 1002, node_id: 'U_kgDOuna', name: 'Una' },
    // a GitHub user with no catalog User
    { login: 'mallory', id: 1003, node_id: 'U_kgDOmal', name: 'Mallory' },
    // the GitHub login equals a catalog User's name, but not its annotation
    { login: 'ada', id: 1004, node_id: 'U_kgDOimp', name: 'Not Ada' },
  ];
  const scheduler = new SelectiveScheduler(new Set());
  let github: Awaited<ReturnType<typeof startFakeGithub>>;
  let base = '';
  let production: Record<string, any>;
  let backend: Awaited<ReturnType<typeof startTestBackend>> | undefined;

  function catalogFile(): string {
    const user = (name: string, nodeId: string) => ({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'User',
      metadata: {
        name,
        annotations: { 'github.com/user-id': nodeId },
      },
      // memberOf is required; the Groups' members give the membership here
      spec: { memberOf: [] },
    });
    const group = (name: string, members: string[]) => ({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Group',
      metadata: { name },
      spec: { type: 'team', children: [], members },
    });
    const file = path.join(tmp, 'org.yaml');
    fs.writeFileSync(
      file,
      [
        user('ada', 'U_kgDOada'),
        user('una', 'U_kgDOuna'),
        group('platform-admins', ['ada']),
        group('team-a', ['una']),
      ]
        .map(d => JSON.stringify(d))
        .join('\n---\n'),
    );
    return file;
  }

  beforeAll(async () => {
    github = await startFakeGithub(accounts, CLIENT);
    production = await productionConfig({
      AUTH_GITHUB_CLIENT_ID: CLIENT.id,
      AUTH_GITHUB_CLIENT_SECRET: CLIENT.secret,
      AUTH_GITHUB_ENTERPRISE_INSTANCE_URL: github.url,
    });
    const kubeconfigPath = path.join(tmp, 'backend.kubeconfig');
    fs.writeFileSync(
      kubeconfigPath,
      await prepareManagementCluster(management),
    );
    backend = await startTestBackend({
      features: [
        authServiceFactory,
        httpAuthServiceFactory,
        permissionsServiceFactory,
        permissionsRegistryServiceFactory,
        userInfoServiceFactory,
        eventsServiceFactory,
        scheduler.factory(),
        mockServices.rootConfig.factory({
          data: {
            app: { baseUrl: 'http://localhost:3000' },
            auth: production.auth,
            permission: { enabled: true },
            catalog: {
              rules: [{ allow: ['User', 'Group', 'Location'] }],
              locations: [{ type: 'file', target: catalogFile() }],
            },
            infrared: {
              managementCluster: { name: 'infrared-mgmt', kubeconfigPath },
              gitops: { type: 'local', path: path.join(tmp, 'gitops.git') },
              registrar: { enabled: false },
              platformAdmins: production.infrared.platformAdmins,
            },
          },
        }),
        authPlugin,
        // both sign-in modules, as packages/backend/src/index.ts adds them
        guestProvider,
        githubProvider,
        permissionPlugin,
        permissionPolicy,
        catalogPlugin,
        infraredPlugin,
      ],
    });
    base = `http://127.0.0.1:${backend.server.port()}`;
  });

  afterAll(async () => {
    scheduler.stop();
    for (const name of [`${run}-ada`, `${run}-una`]) {
      await admin.request('DELETE', `${API}/clusters/${name}`);
    }
    // stopped before its gitops repository is removed: a removal's publish may still be writing
    await backend?.stop();
    await github?.stop();
    await workload?.close();
    removeTestDir(tmp);
  });

  /** Signs in once the catalog has the org (its first processing takes a moment). */
  const signInWhenReady = (login: string, group: string) =>
    eventually(
      async () => {
        const answer = await githubSignIn(base, github.url, login);
        if (!answer.token) return undefined;
        const { ent } = await userInfo(base, answer.token);
        return ent.includes(group) ? answer.token : undefined;
      },
      60_000,
      500,
    );

  const register = async (token: string, name: string) => {
    workload ??= await serverAlias(cp, 'workload-a');
    return fetch(`${base}/api/infrared/v1/clusters`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        name,
        kubeconfig: workload.kubeconfig,
        flavor: 'k3s',
        provider: 'local',
      }),
    });
  };

  it('ships GitHub sign-in with the resolver by the github.com/user-id annotation, and no guest', () => {
    expect(production.auth.environment).toBe('production');
    expect(production.auth.providers.guest ?? null).toBeNull();
    expect(production.auth.providers.github.production).toEqual({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      enterpriseInstanceUrl: github.url,
      signIn: {
        resolvers: [{ resolver: 'userIdMatchingUserEntityAnnotation' }],
      },
    });
    // the app's sign-in page offers GitHub (packages/app's signInProviders)
    expect(production.app.signIn).toEqual({ providers: ['github'] });
    expect(production.infrared.platformAdmins).toEqual({
      groups: ['group:default/platform-admins'],
      allowGuest: false,
    });
  });

  it('a member of platform-admins registers a cluster', async () => {
    const token = await signInWhenReady(
      'ada-gh',
      'group:default/platform-admins',
    );
    expect(await userInfo(base, token)).toEqual({
      sub: 'user:default/ada',
      ent: ['user:default/ada', 'group:default/platform-admins'],
    });
    const res = await register(token, `${run}-ada`);
    expect([res.status, await res.text()]).toEqual([201, expect.any(String)]);
    const made = await admin.request('GET', `${API}/clusters/${run}-ada`);
    expect(made.status).toBe(200);
  });

  it('a signed-in user outside platform-admins gets 403, and nothing is made', async () => {
    const token = await signInWhenReady('una-gh', 'group:default/team-a');
    expect(await userInfo(base, token)).toEqual({
      sub: 'user:default/una',
      ent: ['user:default/una', 'group:default/team-a'],
    });
    const res = await register(token, `${run}-una`);
    expect(res.status).toBe(403);
    const made = await admin.request('GET', `${API}/clusters/${run}-una`);
    expect(made.status).toBe(404);
  });

  it('signs in nobody the catalog does not name by GitHub user ID', async () => {
    // the org is in the catalog by now (the tests above signed in from it)
    const stranger = await githubSignIn(base, github.url, 'mallory');
    expect(stranger.token).toBeUndefined();
    expect(stranger.error?.message).toMatch(/unable to resolve user identity/);
    // a GitHub login equal to an admin's User name is not that User
    const lookalike = await githubSignIn(base, github.url, 'ada');
    expect(lookalike.token).toBeUndefined();
    expect(lookalike.error?.message).toMatch(/unable to resolve user identity/);
    // the guest is off: its module is there, its config removed (guest: null)
    const guest = await fetch(`${base}/api/auth/guest/refresh`, {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(guest.status).toBe(404);
  });
});
