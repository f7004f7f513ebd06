import { mockServices } from '@backstage/backend-test-utils';
import type { SchedulerServiceTaskScheduleDefinition } from '@backstage/backend-plugin-api';
import { RequestCounter } from '@infrared-clusters/infrared-kube';
import type { RegistrarApi } from '@infrared-clusters/infrared-registrar';
import { readRegistrarConfig, discoveredClustersOptions } from './config';
import { registerRegistrarTask, REGISTRAR_TASK_ID } from './task';

const b64 = (s: string) => Buffer.from(s).toString('base64');

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://192.0.2.1:6443', certificate-authority-data: ${b64(
  'CA',
)}}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`;

function fakeApi(): RegistrarApi & { created: string[] } {
  const created: string[] = [];
  return {
    created,
    counter: new RequestCounter(),
    listNamespaces: async () => [
      {
        metadata: {
          name: 'k3k-a',
          uid: 'u1',
          labels: {
            'argocd-cluster-registrar/managed-by': 'cluster-registrar',
            'argocd-cluster-registrar/cluster': 'a',
          },
        },
      },
    ],
    getNamespace: async () => undefined,
    listSecrets: async () => [
      {
        metadata: { name: 'k3k-a-kubeconfig', namespace: 'k3k-a' },
        data: { 'kubeconfig.yaml': b64(KUBECONFIG) },
      },
    ],
    createSecret: async s => {
      created.push(s.metadata.name);
      return s;
    },
    replaceSecret: async s => s,
    deleteSecret: async () => {},
  };
}

function fakeScheduler() {
  const scheduled: Array<
    SchedulerServiceTaskScheduleDefinition & {
      id: string;
      fn: any;
      scope?: string;
    }
  > = [];
  const scheduler = mockServices.scheduler.mock({
    scheduleTask: async (task: any) => {
      scheduled.push(task);
    },
  });
  return { scheduler, scheduled };
}

describe('registerRegistrarTask', () => {
  it('does nothing when disabled', async () => {
    const { scheduler, scheduled } = fakeScheduler();
    const task = await registerRegistrarTask({
      config: mockServices.rootConfig({ data: {} }),
      logger: mockServices.logger.mock(),
      scheduler,
      api: fakeApi(),
    });
    expect(task).toBeUndefined();
    expect(scheduled).toEqual([]);
  });

  it('schedules a global task every interval whose pass registers children and honours the signal', async () => {
    const { scheduler, scheduled } = fakeScheduler();
    const api = fakeApi();
    const task = await registerRegistrarTask({
      config: mockServices.rootConfig({
        data: { infrared: { registrar: { enabled: true, interval: '90s' } } },
      }),
      logger: mockServices.logger.mock(),
      scheduler,
      api,
    });
    expect(task?.taskId).toBe(REGISTRAR_TASK_ID);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]).toMatchObject({
      id: 'infrared-registrar',
      scope: 'global',
      frequency: { milliseconds: 90_000 },
    });
    await scheduled[0].fn(new AbortController().signal);
    expect(api.created).toEqual(['cluster-a']);
    expect(task?.lastReport()).toMatchObject({ created: 1, errors: [] });

    const aborted = new AbortController();
    aborted.abort();
    api.created.length = 0;
    await scheduled[0].fn(aborted.signal);
    expect(api.created).toEqual([]);
  });

  it('finds the management cluster where the kube service does, and says why not as it does', async () => {
    const { scheduler, scheduled } = fakeScheduler();
    const register = (managementCluster: object) =>
      registerRegistrarTask({
        config: mockServices.rootConfig({
          data: {
            infrared: {
              managementCluster,
              registrar: { enabled: true },
            },
          },
        }),
        logger: mockServices.logger.mock(),
        scheduler,
        kubeConfig: false,
        leaderElection: false,
      });
    const missing = '/nonexistent/infrared/management.kubeconfig';
    await expect(register({ kubeconfigPath: missing })).rejects.toThrow(
      `infrared.registrar is enabled but the management cluster's kubeconfig (${missing}) cannot be loaded: `,
    );
    expect(scheduled).toEqual([]);
  });

  it('refuses invalid configuration at startup, naming the key, even when disabled', async () => {
    const { scheduler } = fakeScheduler();
    await expect(
      registerRegistrarTask({
        config: mockServices.rootConfig({
          data: {
            infrared: { registrar: { enabled: false, labelPrefix: 'nope' } },
          },
        }),
        logger: mockServices.logger.mock(),
        scheduler,
        api: fakeApi(),
      }),
    ).rejects.toThrow(
      'infrared.registrar.labelPrefix: "nope" must end in \'/\'',
    );
  });

  it.each([
    [{ interval: 0 }, 'infrared.registrar.interval: must be greater than 0'],
    [
      { demotedTtl: '-5m' },
      'infrared.registrar.demotedTtl: must not be negative',
    ],
    [
      { providers: ['k3k', { name: 'k3k' }] },
      'infrared.registrar.providers[1].name: duplicate provider name',
    ],
    [
      { providers: [{ name: 'x', secretNamePattern: '[', keys: ['k'] }] },
      'infrared.registrar.providers[0].secretNamePattern',
    ],
    [{ labelPrefix: 'argocd.argoproj.io/' }, 'infrared.registrar.labelPrefix'],
    [{ enabled: 'yes' }, 'infrared.registrar.enabled: must be true or false'],
    [{ intervall: '30s' }, 'infrared.registrar.intervall: unknown key'],
    [
      { providers: [{ name: 'x', secretNamePatern: 'x-*', keys: ['k'] }] },
      'infrared.registrar.providers[0].secretNamePatern: unknown key',
    ],
    [
      { providers: [{ name: 'k3k', allowExec: 'yes' }] },
      'infrared.registrar.providers[0].allowExec: must be a boolean',
    ],
    [
      { debug: true },
      'infrared.registrar.debug: not a registrar setting here: the registrar logs through the backend logger; for its debug lines set backend.logger.overrides',
    ],
    [
      { secretNamePattern: 'vc-*', providers: ['k3k'] },
      'infrared.registrar.secretNamePattern: infrared.registrar.secretNamePattern cannot be combined with infrared.registrar.providers',
    ],
  ])('rejects %j', (registrar, message) => {
    expect(() =>
      readRegistrarConfig(
        mockServices.rootConfig({ data: { infrared: { registrar } } }),
      ),
    ).toThrow(message);
  });

  it("maps upstream's secretNamePattern/secretKey values onto one provider, with a deprecation warning", () => {
    const read = (registrar: object) =>
      readRegistrarConfig(
        mockServices.rootConfig({ data: { infrared: { registrar } } }),
      );
    const { options, warnings } = read({
      secretNamePattern: 'vc-*',
      secretKey: 'config',
      providers: [],
      dryRun: true,
    });
    expect(options.providers).toEqual([
      {
        name: 'custom',
        secretNamePattern: 'vc-*',
        keys: ['config'],
        allowExec: false,
      },
    ]);
    expect(options.dryRun).toBe(true);
    expect(warnings).toEqual([
      'infrared.registrar.secretNamePattern and infrared.registrar.secretKey are deprecated; use infrared.registrar.providers custom=vc-*=config',
    ]);
    expect(read({ secretKey: 'kc' }).options.providers[0]).toMatchObject({
      secretNamePattern: 'k3k-*-kubeconfig',
      keys: ['kc'],
    });
  });

  it('reads durations as objects and presets with options', () => {
    const { options } = readRegistrarConfig(
      mockServices.rootConfig({
        data: {
          infrared: {
            registrar: {
              interval: { minutes: 2 },
              demotedTtl: '72h',
              providers: [
                'capa-eks',
                { name: 'mine', secretNamePattern: 'kc-*', keys: ['a'] },
              ],
              execCredentials: true,
            },
          },
        },
      }),
    );
    expect(options.intervalMs).toBe(120_000);
    expect(options.demotedTtlMs).toBe(72 * 3_600_000);
    expect(options.providers.map(p => p.name)).toEqual(['capa-eks', 'mine']);
    expect(
      discoveredClustersOptions(
        mockServices.rootConfig({
          data: { infrared: { registrar: { managedBy: 'x' } } },
        }),
      ),
    ).toEqual({
      targetNamespace: 'argocd',
      labelPrefix: 'argocd-cluster-registrar/',
      managedBy: 'x',
    });
  });
});
