import type { LoggerService } from '@backstage/backend-plugin-api';
import { ConflictError, ServiceUnavailableError } from '@backstage/errors';
import { KubeApiError } from '@infrared-clusters/infrared-kube';
import { decide, leaseKey, type LeaseMemory, type Verdict } from './decide';
import {
  InstallationLease,
  LeaseRaceError,
  recordOf,
  type LeaseObject,
} from './lease';

/**
 * - `held`: this installation holds the Lease; it reconciles and writes.
 * - `refused`: another installation holds it, renewed within its duration; this one neither
 *   reconciles nor writes (reads work).
 * - `pending`: not known yet (the first look failed), or this installation could not renew for
 *   most of a lease duration; it neither reconciles nor writes until a look succeeds.
 * - `unguarded`: the Lease cannot be used (RBAC refuses it, or no Kubernetes client): the backend
 *   works as before the rule, and says so.
 */
export type InstallationState = 'held' | 'refused' | 'pending' | 'unguarded';

/** What GET /health shows of the rule. */
export interface InstallationView {
  /** This backend's installation id. */
  id: string;
  state: InstallationState;
  /** The holding installation's id, when another holds the Lease. */
  holder?: string;
  /** `<namespace>/<name>` of the Lease. */
  lease: string;
  managementCluster: string;
  /** One sentence for the portal and the logs. */
  message: string;
}

export interface InstallationGuardOptions {
  id: string;
  leaseDurationMs: number;
  renewEveryMs: number;
  managementCluster: string;
  logger: LoggerService;
  /** None: `unguarded` for `unguardedReason`. */
  lease?: InstallationLease;
  unguardedReason?: string;
  now?: () => number;
}

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

/**
 * One installation per management cluster (see the README, "One installation per management
 * cluster"): every replica of this installation looks at the Lease every `renewEveryMs`, renews it
 * when no replica did since its last look, and gates the reconcilers and the write routes on the
 * outcome. Renewals are not part of any pass: they run on their own timer and client.
 *
 * The Lease is not released on shutdown: replicas share the id, so one replica stopping (a rolling
 * update) must not hand the management cluster to another installation. Another installation takes
 * over one lease duration after the last replica stopped.
 */
export class InstallationGuard {
  private state: InstallationState;
  private holder?: string;
  private memory?: LeaseMemory;
  private lastConfirmed = 0;
  private lastError?: string;
  private loggedRefusal?: string;
  private loggedProblem = false;
  private timer?: ReturnType<typeof setTimeout>;
  private stopped = false;
  private readonly listeners: Array<(allowed: boolean) => void> = [];
  private readonly now: () => number;

  constructor(private readonly options: InstallationGuardOptions) {
    this.now = options.now ?? Date.now;
    this.state = options.lease ? 'pending' : 'unguarded';
  }

  get id(): string {
    return this.options.id;
  }

  /** Whether the reconcilers may pass and the write routes may write. */
  allows(): boolean {
    return this.state === 'held' || this.state === 'unguarded';
  }

  /** Told when `allows()` changes. */
  onChange(listener: (allowed: boolean) => void): void {
    this.listeners.push(listener);
  }

  /** Requests the Lease took so far (tests). */
  get requests(): number {
    return this.options.lease?.requests ?? 0;
  }

  private get leaseName(): string {
    return this.options.lease?.description ?? 'infrared/infrared-installation';
  }

  view(): InstallationView {
    const { id, managementCluster } = this.options;
    return {
      id,
      state: this.state,
      ...(this.state === 'refused' && { holder: this.holder }),
      lease: this.leaseName,
      managementCluster,
      message: this.message(),
    };
  }

  private message(): string {
    const { id, managementCluster, leaseDurationMs } = this.options;
    const lease = `Lease ${this.leaseName}`;
    switch (this.state) {
      case 'held':
        return `installation "${id}" manages management cluster ${managementCluster} (${lease})`;
      case 'refused':
        return (
          `installation "${this.holder}" manages management cluster ${managementCluster} (${lease}); ` +
          `this backend is installation "${id}" and neither reconciles nor writes. ` +
          `If both are replicas of one installation, give them the same infrared.installation.id; ` +
          `otherwise stop the other installation (this one takes over ${seconds(
            leaseDurationMs,
          )} s after it stops) or point this backend at another management cluster`
        );
      case 'pending':
        return `not known yet whether installation "${id}" manages management cluster ${managementCluster} (${lease}: ${
          this.lastError ?? 'not read yet'
        }); no reconciling or writing meanwhile`;
      default:
        return `the one-installation check is off: ${
          this.options.unguardedReason ?? this.lastError
        }`;
    }
  }

  /** The error a write route answers while `allows()` is false (409 refused, 503 pending). */
  refusal(): Error | undefined {
    if (this.allows()) return undefined;
    const message = `infrared: ${this.message()}`;
    return this.state === 'refused'
      ? new ConflictError(message)
      : new ServiceUnavailableError(message);
  }

  private setState(state: InstallationState, holder?: string): void {
    const before = this.allows();
    this.state = state;
    this.holder = holder;
    const after = this.allows();
    if (before !== after) {
      for (const listener of this.listeners) listener(after);
    }
  }

  /** One look at the Lease and, when the verdict says so, one write. */
  async check(): Promise<void> {
    const lease = this.options.lease;
    if (!lease) return;
    try {
      await this.look(lease).catch(async e => {
        // another writer got in between our GET and our write: one more look decides
        if (e instanceof LeaseRaceError) await this.look(lease);
        else throw e;
      });
    } catch (e) {
      this.failed(e);
    }
  }

  private async look(lease: InstallationLease): Promise<void> {
    const { id, leaseDurationMs } = this.options;
    const now = this.now();
    const current = await lease.read();
    const { verdict, memory } = decide({
      me: id,
      lease: current && recordOf(current),
      memory: this.memory,
      now,
      leaseDurationMs,
    });
    this.memory = memory;
    if (verdict.action === 'refuse') {
      this.refused(verdict.holder);
      return;
    }
    if (verdict.action !== 'hold') {
      const written: LeaseObject = await lease.write(
        current,
        id,
        leaseDurationMs,
        now,
      );
      this.memory = { key: leaseKey(recordOf(written)), seenAt: now };
    }
    this.confirmed(now, verdict);
  }

  private confirmed(now: number, verdict: Verdict): void {
    const { logger, id, managementCluster } = this.options;
    const was = this.state;
    const previousHolder = this.holder;
    this.lastConfirmed = now;
    this.lastError = undefined;
    this.loggedProblem = false;
    this.loggedRefusal = undefined;
    this.setState('held');
    if (was === 'held') return;
    let from = '';
    if (verdict.action === 'take-over' && verdict.from) {
      from = `; took it over from installation "${verdict.from}", whose Lease expired`;
    } else if (previousHolder) {
      from = `; installation "${previousHolder}" had it`;
    }
    logger.info(
      `infrared: installation "${id}" holds the Lease ${this.leaseName} and manages management cluster ${managementCluster}${from}`,
    );
  }

  private refused(holder: string): void {
    this.setState('refused', holder);
    this.lastError = undefined;
    if (this.loggedRefusal !== holder) {
      this.loggedRefusal = holder;
      this.options.logger.error(`infrared: ${this.message()}`);
    }
  }

  private failed(e: unknown): void {
    const { logger, leaseDurationMs, renewEveryMs } = this.options;
    const error = e instanceof Error ? e.message : String(e);
    this.lastError = error;
    if (e instanceof KubeApiError && e.code === 403) {
      this.setState('unguarded');
      if (!this.loggedProblem) {
        this.loggedProblem = true;
        logger.error(
          `infrared: the backend may not use the Lease ${this.leaseName} (${error}); grant it leases get, create and update there (the chart's Role infrared-backend does). Until then it runs WITHOUT the one-installation check: another installation on this management cluster would overwrite its work`,
        );
      }
      return;
    }
    if (!this.loggedProblem) {
      this.loggedProblem = true;
      logger.warn(
        `infrared: could not renew or read the Lease ${this.leaseName}: ${error}`,
      );
    }
    // Held: still ours until another installation could have seen it unchanged for a duration.
    if (
      this.state === 'held' &&
      this.now() - this.lastConfirmed >= leaseDurationMs - renewEveryMs
    ) {
      logger.warn(
        `infrared: the Lease ${this.leaseName} was not renewed for ${seconds(
          this.now() - this.lastConfirmed,
        )} s: no reconciling or writing until it is`,
      );
      this.setState('pending');
    }
  }

  /** The first look (the state is known when init ends), then one look every `renewEveryMs`. */
  async start(): Promise<void> {
    if (!this.options.lease) {
      this.options.logger.info(`infrared: ${this.message()}`);
      return;
    }
    await this.check();
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    const { renewEveryMs } = this.options;
    const wait =
      this.state === 'pending' ? Math.min(renewEveryMs, 2_000) : renewEveryMs;
    this.timer = setTimeout(() => {
      this.check().finally(() => this.schedule());
    }, wait);
    this.timer.unref?.();
  }

  /** Stops looking. The Lease stays: it expires one duration after the last replica stops. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
