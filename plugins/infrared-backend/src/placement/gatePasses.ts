import type { LoggerService } from '@backstage/backend-plugin-api';
import { KeyedLock } from '@infrared-clusters/infrared-kube';
import type { GatePassSummary, ReleaseGate } from './gate';

/** Changes that arrive this close together share one pass (a kubectl apply of several objects). */
export const GATE_COALESCE_MS = 200;

export interface GatePassesOptions {
  gate: Pick<ReleaseGate, 'pass'>;
  logger: LoggerService;
  /** The one-installation rule: no in-process pass while it does not allow. */
  allows?: () => boolean;
  coalesceMs?: number;
}

/**
 * The release gate's passes in this replica: the scheduled task's run, and in-process passes a
 * change asks for (a watch event, a write of the placement routes). One pass at a time in this
 * replica; requests made meanwhile are merged into one pass after it, so a change made during a
 * pass is still seen by a pass that reads after it.
 *
 * An in-process pass is not the scheduler's global task: every replica that sees a change passes.
 * That is safe: a status write is preconditioned on the Release's resourceVersion (a stale one is
 * refused with 409), and a promotion is published under its idempotency key (one branch or pull
 * request per Release and zone). The scheduled task stays the full resync.
 */
export class GatePasses {
  /** Passes this replica ran, scheduled and in-process (tests). */
  passes = 0;
  last?: GatePassSummary;
  private readonly lock = new KeyedLock();
  private pending = false;
  private loop?: Promise<void>;
  private stopped = false;

  constructor(private readonly options: GatePassesOptions) {}

  /** One pass now (the scheduled task's run), after any pass in flight here. */
  run(signal?: AbortSignal): Promise<GatePassSummary> {
    return this.lock.run('pass', async () => {
      const pass = await this.options.gate.pass(signal);
      this.passes++;
      this.last = pass;
      return pass;
    });
  }

  /** Fire and forget: an in-process pass soon; requests until it starts are merged into it. */
  request(reason: string): void {
    if (this.stopped) return;
    this.pending = true;
    if (this.loop) return;
    this.loop = this.drain(reason).finally(() => {
      this.loop = undefined;
    });
  }

  /** Resolves when no requested pass is pending or running (tests). */
  async settled(): Promise<void> {
    while (this.loop) await this.loop;
  }

  stop(): void {
    this.stopped = true;
  }

  private async drain(reason: string): Promise<void> {
    const { logger, allows, coalesceMs = GATE_COALESCE_MS } = this.options;
    while (this.pending && !this.stopped) {
      await new Promise(r => setTimeout(r, coalesceMs));
      this.pending = false;
      if (allows && !allows()) return; // the scheduled task catches up once it may again
      try {
        const pass = await this.run();
        if (pass.statusWrites || pass.published) {
          logger.debug?.(
            `infrared: release gate pass on a change (${reason}): ${pass.statusWrites} statuses written, ${pass.published} changes published in ${pass.durationMs} ms`,
          );
        }
      } catch (e) {
        logger.warn(
          `infrared: release gate pass on a change (${reason}) failed: ${
            (e as Error).message
          }`,
        );
      }
    }
  }
}
