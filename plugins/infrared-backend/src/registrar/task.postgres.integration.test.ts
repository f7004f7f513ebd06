import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { databaseServiceFactory } from '@backstage/backend-defaults/database';
import { schedulerServiceFactory } from '@backstage/backend-defaults/scheduler';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import {
  eventually,
  getTestControlPlane,
  startPostgres,
  uniqueName,
  type LocalPostgres,
} from '@internal/devenv';
import {
  KubeClient,
  kubeConfigFromText,
} from '@infrared-clusters/infrared-kube';
import {
  KubeRegistrarApi,
  type RegistrarApi,
} from '@infrared-clusters/infrared-registrar';
import { registerRegistrarTask } from './task';

jest.setTimeout(180_000);

/** Counts passes and how many run at once (each pass starts with one namespace LIST). */
class PassRecorder {
  passes: number[] = [];
  active = 0;
  maxActive = 0;
  start(replica: number) {
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    this.passes.push(replica);
    return () => {
      this.active -= 1;
    };
  }
}

/**
 * Two backend replicas on one PostgreSQL, as in production: the registrar is a `scope: 'global'`
 * task, so Backstage's scheduler must run its passes one replica at a time (what the upstream
 * registrar needs leader election for). With SQLite each replica would have its own lock table.
 */
describe('the registrar on two replicas sharing PostgreSQL', () => {
  const management = getTestControlPlane().cluster('management');
  let postgres: LocalPostgres;
  const backends: Array<{ stop(): Promise<void> }> = [];
  const record = new PassRecorder();

  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(backends.map(b => b.stop()));
    // A stopped backend lets a pass in flight finish, and its scheduler then releases the task
    // in the database: only then may PostgreSQL go.
    await eventually(async () => record.active === 0, 10_000, 100);
    await new Promise(r => setTimeout(r, 1000));
    await postgres?.stop();
  });

  /** The real API, with each pass's first LIST held for a while so overlapping passes would show. */
  function recordingApi(replica: number): RegistrarApi {
    const real = new KubeRegistrarApi(
      new KubeClient(kubeConfigFromText(management.kubeconfig)),
    );
    return new Proxy(real, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'listNamespaces') return value;
        return async (...args: unknown[]) => {
          const end = record.start(replica);
          try {
            await new Promise(r => setTimeout(r, 700));
            return await value.apply(target, args);
          } finally {
            end();
          }
        };
      },
    });
  }

  function startReplica(index: number, targetNamespace: string) {
    return startTestBackend({
      features: [
        // The real database and scheduler (the test backend's defaults are in-memory mocks).
        databaseServiceFactory,
        schedulerServiceFactory,
        mockServices.rootConfig.factory({
          data: {
            backend: {
              database: { client: 'pg', connection: postgres.connection },
            },
            infrared: {
              registrar: { enabled: true, interval: '1s', targetNamespace },
            },
          },
        }),
        createBackendPlugin({
          pluginId: 'infrared',
          register(env) {
            env.registerInit({
              deps: {
                config: coreServices.rootConfig,
                logger: coreServices.logger,
                scheduler: coreServices.scheduler,
              },
              async init(deps) {
                await registerRegistrarTask({
                  ...deps,
                  api: recordingApi(index),
                });
              },
            });
          },
        }),
      ],
    });
  }

  it('runs the passes one at a time, whichever replica takes them', async () => {
    const target = uniqueName('argocd');
    // One after the other, as a rolling deployment starts them: two backends migrating the same
    // fresh database at the same instant race on knex's own migrations table.
    backends.push(await startReplica(1, target));
    backends.push(await startReplica(2, target));

    await eventually(async () => record.passes.length >= 4, 90_000);
    expect(record.maxActive).toBe(1);
  });
});
