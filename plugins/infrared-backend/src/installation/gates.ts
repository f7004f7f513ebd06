import type {
  HttpAuthService,
  LoggerService,
  SchedulerService,
  SchedulerServiceTaskFunction,
} from '@backstage/backend-plugin-api';
import type { NextFunction, Request, Response } from 'express';

/** What the gates need of the guard. */
export interface InstallationGate {
  allows(): boolean;
  onChange(listener: (allowed: boolean) => void): void;
  refusal(): Error | undefined;
}

/**
 * The scheduler the reconcilers get: each task's run is skipped (at no request) while the
 * installation may not write, and every task that skipped a run is triggered at once when it may
 * again (a take-over). A task that skipped nothing is left to its schedule.
 */
export function gatedScheduler(
  scheduler: SchedulerService,
  gate: InstallationGate,
  logger: LoggerService,
): SchedulerService {
  const ids = new Set<string>();
  const skipped = new Set<string>();
  const gated =
    (
      id: string,
      fn: SchedulerServiceTaskFunction,
    ): SchedulerServiceTaskFunction =>
    async (signal: any) => {
      if (!gate.allows()) {
        skipped.add(id);
        logger.debug(`infrared: ${id} skipped: ${gate.refusal()?.message}`);
        return;
      }
      await fn(signal);
    };
  gate.onChange(allowed => {
    if (!allowed) return;
    const due = [...skipped].filter(id => ids.has(id));
    skipped.clear();
    for (const id of due) {
      scheduler
        .triggerTask(id)
        .catch(e =>
          logger.debug(`infrared: could not trigger ${id}: ${e.message}`),
        );
    }
  });
  return {
    ...scheduler,
    triggerTask: id => scheduler.triggerTask(id),
    cancelTask: id => scheduler.cancelTask(id),
    getScheduledTasks: () => scheduler.getScheduledTasks(),
    scheduleTask: task => {
      ids.add(task.id);
      return scheduler.scheduleTask({ ...task, fn: gated(task.id, task.fn) });
    },
    createScheduledTaskRunner: schedule => {
      const runner = scheduler.createScheduledTaskRunner(schedule);
      return {
        run: task => {
          ids.add(task.id);
          return runner.run({ ...task, fn: gated(task.id, task.fn) });
        },
      };
    },
  };
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Express middleware before the routes: a write (POST, PUT, PATCH, DELETE) from an authenticated
 * caller gets the guard's refusal (409 while another installation holds the Lease, 503 while it is
 * not known) instead of reaching a route. Reads pass. An unauthenticated caller still gets 401.
 */
export function installationWriteGate(
  gate: InstallationGate,
  httpAuth: HttpAuthService,
) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    if (READS.has(req.method) || gate.allows()) {
      next();
      return;
    }
    await httpAuth.credentials(req);
    const refusal = gate.refusal();
    if (refusal) throw refusal;
    next();
  };
}
