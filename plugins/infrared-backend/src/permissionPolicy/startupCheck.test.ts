import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  coreServices,
  createBackendModule,
  createServiceFactory,
  type LoggerService,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import permissionBackend from '@backstage/plugin-permission-backend';
import allowAllPolicy from '@backstage/plugin-permission-backend-module-allow-all-policy';
import request from 'supertest';
import { infraredPlugin } from '../plugin';
import myPermissionPolicy from './__fixtures__/myPermissionPolicy';
import { resetPlatformAdminDecisionCreated } from './composed';
import { permissionModuleInfraredPlatformAdmins } from './module';
import { checkPermissionPolicy, PERMISSIONS_README_URL } from './startupCheck';

jest.setTimeout(60_000);

type Line = { level: string; message: string; plugin?: string };

/** A root logger that keeps every line, with the plugin it came from. */
function capturingLogger() {
  const lines: Line[] = [];
  const make = (meta: Record<string, unknown>): LoggerService => {
    const log = (level: string) => (message: string) => {
      lines.push({ level, message, plugin: meta.plugin as string });
    };
    return {
      error: log('error'),
      warn: log('warn'),
      info: log('info'),
      debug: log('debug'),
      child: m => make({ ...meta, ...m }),
    };
  };
  const factory = createServiceFactory({
    service: coreServices.rootLogger,
    deps: {},
    factory: () => make({}),
  });
  return { lines, factory };
}

/** The permission check's line of the infrared plugin, once it is logged. */
async function checkLine(lines: Line[]): Promise<Line> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const line = lines.find(
      l => l.plugin === 'infrared' && /permission/.test(l.message),
    );
    if (line) return line;
    if (Date.now() > deadline) {
      throw new Error(
        `no permission check line; infrared logged: ${JSON.stringify(
          lines.filter(l => l.plugin === 'infrared'),
        )}`,
      );
    }
    await new Promise(r => setTimeout(r, 50));
  }
}

async function start(
  features: NonNullable<Parameters<typeof startTestBackend>[0]['features']>,
  permissionEnabled = true,
) {
  const logger = capturingLogger();
  const backend = await startTestBackend({
    features: [
      infraredPlugin,
      ...features,
      logger.factory,
      mockServices.rootConfig.factory({
        data: { permission: { enabled: permissionEnabled } },
      }),
    ],
  });
  return { ...backend, lines: logger.lines };
}

/** What the real permission backend answers a signed-in user who is not a platform admin. */
async function decisionForUser(server: http.Server, name: string) {
  const res = await request(server)
    .post('/api/permission/authorize')
    .set('Authorization', mockCredentials.user.header())
    .send({
      items: [
        {
          id: '1',
          permission: {
            type: 'basic',
            name,
            attributes: { action: 'create' },
          },
        },
      ],
    });
  expect(res.status).toBe(200);
  return res.body.items[0].result;
}

/** A policy of an adopter's own that allows everything, under a module id the check does not know. */
const ownAllowAllPolicy = createBackendModule({
  pluginId: 'permission',
  moduleId: 'my-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy({
          async handle() {
            return { result: AuthorizeResult.ALLOW };
          },
        });
      },
    });
  },
});

beforeEach(() => resetPlatformAdminDecisionCreated());

describe('the startup check of the permission policy (real permission backend)', () => {
  it("warns under create-app's allow-all policy, naming the permissions, the risk and the fix", async () => {
    const { server, lines } = await start([permissionBackend, allowAllPolicy]);
    // the setup really opens Infrared's changes: a user who is no platform admin is allowed
    expect(await decisionForUser(server, 'infrared.cluster.create')).toBe(
      AuthorizeResult.ALLOW,
    );
    const line = await checkLine(lines);
    expect(line.level).toBe('warn');
    for (const text of [
      'allow-all-policy',
      'infrared.cluster.create',
      'infrared.cluster.delete',
      'infrared.cluster.provision',
      'infrared.allowlist.update',
      'any signed-in user',
      'register and remove clusters',
      'run OpenTofu',
      'permissionModuleInfraredPlatformAdmins',
      'createInfraredPlatformAdminDecision',
      PERMISSIONS_README_URL,
    ]) {
      expect(line.message).toContain(text);
    }
  });

  it('does not warn with permissionModuleInfraredPlatformAdmins', async () => {
    const { server, lines } = await start([
      permissionBackend,
      permissionModuleInfraredPlatformAdmins,
    ]);
    expect(await decisionForUser(server, 'infrared.cluster.create')).toBe(
      AuthorizeResult.DENY,
    );
    // the module keeps create-app's answer for every other permission
    expect(await decisionForUser(server, 'catalog.entity.create')).toBe(
      AuthorizeResult.ALLOW,
    );
    const line = await checkLine(lines);
    expect(line).toMatchObject({ level: 'info' });
    expect(line.message).toContain('platform admins only');
    expect(
      lines.filter(l => l.level === 'warn' && /permission/i.test(l.message)),
    ).toEqual([]);
  });

  it('warns when permission.enabled is not true, even with the module', async () => {
    const { lines } = await start(
      [permissionBackend, permissionModuleInfraredPlatformAdmins],
      false,
    );
    const line = await checkLine(lines);
    expect(line.level).toBe('warn');
    expect(line.message).toContain('permission.enabled is not true');
    expect(line.message).toContain('register and remove clusters');
    expect(line.message).toContain(PERMISSIONS_README_URL);
  });

  it("does not warn for an adopter's policy that composes createInfraredPlatformAdminDecision", async () => {
    const { server, lines } = await start([
      permissionBackend,
      // the README's example, word for word (readme.test.ts)
      myPermissionPolicy,
    ]);
    expect(await decisionForUser(server, 'infrared.cluster.create')).toBe(
      AuthorizeResult.DENY,
    );
    const line = await checkLine(lines);
    expect(line.level).toBe('info');
    expect(line.message).toContain(
      'composes createInfraredPlatformAdminDecision',
    );
    expect(
      lines.filter(l => l.level === 'warn' && /permission/i.test(l.message)),
    ).toEqual([]);
  });

  it("warns for an adopter's policy it cannot check that does not compose it", async () => {
    const { server, lines } = await start([
      permissionBackend,
      ownAllowAllPolicy,
    ]);
    expect(await decisionForUser(server, 'infrared.cluster.create')).toBe(
      AuthorizeResult.ALLOW,
    );
    const line = await checkLine(lines);
    expect(line.level).toBe('warn');
    expect(line.message).toContain('cannot tell');
    expect(line.message).toContain('my-policy');
  });

  it("cannot ask the policy with a plugin's service token: /authorize refuses it whatever the policy", async () => {
    // why the check reads the installed modules instead of asking the permission backend
    const { server } = await start([permissionBackend, allowAllPolicy]);
    const res = await request(server)
      .post('/api/permission/authorize')
      .set('Authorization', mockCredentials.service.header())
      .send({
        items: [
          {
            id: '1',
            permission: {
              type: 'basic',
              name: 'infrared.cluster.create',
              attributes: { action: 'create' },
            },
          },
        ],
      });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain(
      "does not allow 'service' credentials",
    );
  });
});

describe('a permission backend in another backend instance', () => {
  const enabled = new ConfigReader({ permission: { enabled: true } });
  const logger = mockServices.logger.mock();
  const withoutPermission = {
    getInstalledPlugins: async () => [{ pluginId: 'infrared', modules: [] }],
  };

  async function healthServer(failures: number) {
    let calls = 0;
    const server = http.createServer((req, res) => {
      calls += 1;
      res.statusCode =
        req.url === '/api/permission/health' && calls > failures ? 200 : 503;
      res.end('{}');
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${
      (server.address() as AddressInfo).port
    }/api/permission`;
    return { server, url, calls: () => calls };
  }

  it('retries until it answers (it may start later), then says it cannot see its policy', async () => {
    const health = await healthServer(2);
    try {
      const finding = await checkPermissionPolicy({
        config: enabled,
        logger,
        discovery: {
          getBaseUrl: async () => health.url,
          getExternalBaseUrl: async () => health.url,
        },
        instanceMetadata: withoutPermission,
        retryDelayMs: 20,
      });
      expect(finding).toEqual({ verdict: 'remote', url: health.url });
      expect(health.calls()).toBe(3);
    } finally {
      health.server.close();
    }
  });

  it('gives up after the bounded tries when none answers', async () => {
    const health = await healthServer(100);
    try {
      const finding = await checkPermissionPolicy({
        config: enabled,
        logger,
        discovery: {
          getBaseUrl: async () => health.url,
          getExternalBaseUrl: async () => health.url,
        },
        instanceMetadata: withoutPermission,
        attempts: 3,
        retryDelayMs: 20,
      });
      expect(finding).toEqual({
        verdict: 'no-permission-backend',
        url: health.url,
      });
      expect(health.calls()).toBe(3);
    } finally {
      health.server.close();
    }
  });
});
