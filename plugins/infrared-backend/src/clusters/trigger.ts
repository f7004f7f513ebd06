import type {
  LoggerService,
  SchedulerService,
} from '@backstage/backend-plugin-api';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** A wait that does not hold the process open at shutdown. */
const idle = (ms: number) =>
  new Promise(r => {
    setTimeout(r, ms).unref?.();
  });

/**
 * Asks the scheduler to run the reconcile task now. The scheduler refuses while a pass is running
 * (on any replica); then it asks again until the running pass ends, so a write made during a pass
 * is still seen by a pass that starts after it. With `minGapMs`, a request within that long of the
 * last accepted trigger waits out the rest first (a burst of writes: 10,000 POSTs at once ran
 * passes over every Cluster back to back, seconds of CPU each, while the POSTs came in; issue 25).
 */
export class ReconcileTrigger {
  private pending?: Promise<void>;
  private again = false;
  private lastTriggered?: number;

  constructor(
    private readonly scheduler: Pick<SchedulerService, 'triggerTask'>,
    private readonly taskId: string,
    private readonly logger: LoggerService,
    private readonly options: {
      retryMs?: number;
      maxWaitMs?: number;
      minGapMs?: number;
    } = {},
  ) {}

  /** Fire and forget; requests made while one is pending are merged into it. */
  request(): void {
    if (this.pending) {
      this.again = true;
      return;
    }
    this.pending = this.loop().finally(() => {
      this.pending = undefined;
      if (this.again) {
        this.again = false;
        this.request();
      }
    });
  }

  /** Resolves when no request is pending (for tests). */
  async settled(): Promise<void> {
    while (this.pending) await this.pending;
  }

  private async loop(): Promise<void> {
    const gap = this.options.minGapMs ?? 0;
    if (this.lastTriggered !== undefined) {
      const wait = this.lastTriggered + gap - Date.now();
      if (wait > 0) await idle(wait);
    }
    const deadline = Date.now() + (this.options.maxWaitMs ?? 120_000);
    for (;;) {
      try {
        await this.scheduler.triggerTask(this.taskId);
        this.lastTriggered = Date.now();
        this.again = false;
        return;
      } catch (e) {
        const running = (e as Error)?.name === 'ConflictError';
        if (!running || Date.now() > deadline) {
          this.logger.debug?.(
            `infrared: could not trigger ${this.taskId}: ${
              (e as Error).message
            }`,
          );
          return;
        }
        await sleep(this.options.retryMs ?? 1000);
      }
    }
  }
}
