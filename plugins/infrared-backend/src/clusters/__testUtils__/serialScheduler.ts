import {
  coreServices,
  createServiceFactory,
  type SchedulerService,
  type SchedulerServiceTaskInvocationDefinition,
} from '@backstage/backend-plugin-api';
import { NotFoundError } from '@backstage/errors';

/**
 * A scheduler for tests in which `triggerTask` runs the task once more after whatever run is under
 * way and resolves when that run is done: `await triggerTask(id)` is "one full pass from now".
 * Nothing runs on its own.
 */
export class SerialScheduler {
  private readonly tasks = new Map<
    string,
    SchedulerServiceTaskInvocationDefinition
  >();
  private chain: Promise<unknown> = Promise.resolve();
  private readonly controller = new AbortController();

  readonly service: SchedulerService = {
    scheduleTask: async task => {
      this.tasks.set(task.id, task);
    },
    triggerTask: id => this.triggerTask(id),
    cancelTask: async () => {},
    getScheduledTasks: async () =>
      [...this.tasks.keys()].map(id => ({
        id,
        scope: 'global' as const,
        settings: { version: 2 },
      })),
    createScheduledTaskRunner: schedule => ({
      run: async task => this.service.scheduleTask({ ...task, ...schedule }),
    }),
  };

  triggerTask(id: string): Promise<void> {
    const task = this.tasks.get(id);
    if (!task) return Promise.reject(new NotFoundError(`no task ${id}`));
    const run = this.chain.then(() => task.fn(this.controller.signal));
    this.chain = run.catch(() => undefined);
    return run as Promise<void>;
  }

  stop(): void {
    this.controller.abort();
  }

  factory() {
    return createServiceFactory({
      service: coreServices.scheduler,
      deps: {},
      factory: () => this.service,
    });
  }
}
