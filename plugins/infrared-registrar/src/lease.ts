import { setTimeout as delay } from 'node:timers/promises';
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type KubeClient,
  isAlreadyExists,
  isConflict,
  isNotFound,
  toKubeApiError,
} from '@infrared-clusters/infrared-kube';
import type { RegistrarLogger } from './logger';

/**
 * client-go's and controller-runtime's defaults.
 *
 * @public
 */
export const LEASE_DEFAULTS = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
};

/** @public */
export interface LeaseElectorOptions {
  namespace: string;
  name: string;
  /** Default `<hostname>_<uuid>`, as controller-runtime. */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  logger: RegistrarLogger;
  now?: () => number;
}

interface LeaseObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

const GROUP = {
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
};

/**
 * The registrar's Lease name when none is given (the CLI's --leader-election-id, the backend's
 * task): `acr-` and the first 16 hex digits of sha256(prefix|managedBy), as upstream derives it,
 * so every instance of one registrar contends for the same Lease.
 *
 * @public
 */
export function registrarLeaseName(
  labelPrefix: string,
  managedBy: string,
): string {
  const sum = createHash('sha256')
    .update(`${labelPrefix}|${managedBy}`)
    .digest('hex');
  return `acr-${sum.slice(0, 16)}`;
}

/** MicroTime as the API server writes it: RFC 3339 with six fractional digits. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Waits `ms`, or less when `signal` aborts (resolves either way). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection does it: a
 * holder renews every retry period; another instance takes the Lease over only once it has seen
 * the same record unchanged for a whole lease duration (its own clock, never the holder's); a
 * holder that cannot renew within the renew deadline has lost. Released on a clean stop.
 *
 * @public
 */
export class LeaseElector {
  readonly identity: string;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly now: () => number;
  private observed?: { key: string; at: number };
  private held = false;

  constructor(
    private readonly kube: KubeClient,
    private readonly options: LeaseElectorOptions,
  ) {
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    this.leaseDurationMs =
      options.leaseDurationMs ?? LEASE_DEFAULTS.leaseDurationMs;
    this.renewDeadlineMs =
      options.renewDeadlineMs ?? LEASE_DEFAULTS.renewDeadlineMs;
    this.retryPeriodMs = options.retryPeriodMs ?? LEASE_DEFAULTS.retryPeriodMs;
    this.now = options.now ?? Date.now;
  }

  get description(): string {
    return `${this.options.namespace}/${this.options.name}`;
  }

  get isLeader(): boolean {
    return this.held;
  }

  private async get(signal?: AbortSignal): Promise<LeaseObject | undefined> {
    try {
      return (await this.kube.custom.getNamespacedCustomObject(
        {
          ...GROUP,
          namespace: this.options.namespace,
          name: this.options.name,
        },
        this.kube.callOptions({ signal }),
      )) as LeaseObject;
    } catch (e) {
      const err = toKubeApiError(e, `GET lease ${this.description}`);
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private spec(
    previous: LeaseObject['spec'] | undefined,
    now: number,
  ): LeaseObject['spec'] {
    const taking = previous?.holderIdentity !== this.identity;
    return {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
      acquireTime:
        taking || !previous?.acquireTime
          ? microTime(now)
          : previous.acquireTime,
      renewTime: microTime(now),
      leaseTransitions:
        (previous?.leaseTransitions ?? 0) +
        (taking && previous?.holderIdentity ? 1 : 0),
    };
  }

  /** One attempt to take or renew the Lease; true while this instance holds it. */
  async tryAcquireOrRenew(signal?: AbortSignal): Promise<boolean> {
    const now = this.now();
    const current = await this.get(signal);
    try {
      if (!current) {
        await this.kube.custom.createNamespacedCustomObject(
          {
            ...GROUP,
            namespace: this.options.namespace,
            body: {
              apiVersion: 'coordination.k8s.io/v1',
              kind: 'Lease',
              metadata: {
                name: this.options.name,
                namespace: this.options.namespace,
              },
              spec: this.spec(undefined, now),
            },
          },
          this.kube.callOptions({ signal }),
        );
        this.held = true;
        return true;
      }
      const holder = current.spec?.holderIdentity ?? '';
      const key = `${holder}|${current.spec?.renewTime ?? ''}|${
        current.metadata.resourceVersion ?? ''
      }`;
      if (!this.observed || this.observed.key !== key) {
        this.observed = { key, at: now };
      }
      const durationMs =
        (current.spec?.leaseDurationSeconds ?? this.leaseDurationMs / 1000) *
        1000;
      if (
        holder &&
        holder !== this.identity &&
        this.observed.at + durationMs > now
      ) {
        this.held = false;
        return false;
      }
      await this.kube.custom.replaceNamespacedCustomObject(
        {
          ...GROUP,
          namespace: this.options.namespace,
          name: this.options.name,
          body: { ...current, spec: this.spec(current.spec, now) },
        },
        this.kube.callOptions({ signal }),
      );
      this.held = true;
      return true;
    } catch (e) {
      const err = toKubeApiError(e, `UPDATE lease ${this.description}`);
      // Someone else wrote it first: not ours this round.
      if (isConflict(err) || isAlreadyExists(err)) {
        this.held = false;
        return false;
      }
      throw err;
    }
  }

  /** Waits until this instance holds the Lease (true), or the signal aborts (false). */
  async acquire(signal: AbortSignal): Promise<boolean> {
    const { logger } = this.options;
    logger.info('attempting to acquire leader lease', {
      lease: this.description,
      identity: this.identity,
    });
    let waitingLogged = false;
    while (!signal.aborted) {
      try {
        if (await this.tryAcquireOrRenew(signal)) {
          logger.info('successfully acquired lease', {
            lease: this.description,
            identity: this.identity,
          });
          return true;
        }
        if (!waitingLogged) {
          logger.info('another instance holds the lease; waiting', {
            lease: this.description,
          });
          waitingLogged = true;
        }
      } catch (e) {
        if (signal.aborted) break;
        logger.error('error retrieving resource lock', {
          lease: this.description,
          error: (e as Error).message,
        });
      }
      await sleep(this.retryPeriodMs, signal);
    }
    return false;
  }

  /**
   * Renews every retry period while holding; resolves 'lost' when no renewal succeeded within the
   * renew deadline (or another instance took the Lease), 'stopped' when the signal aborts.
   */
  async hold(signal: AbortSignal): Promise<'lost' | 'stopped'> {
    let lastRenew = this.now();
    while (!signal.aborted) {
      await sleep(this.retryPeriodMs, signal);
      if (signal.aborted) break;
      try {
        if (await this.tryAcquireOrRenew(signal)) {
          lastRenew = this.now();
          continue;
        }
        this.held = false;
        return 'lost';
      } catch (e) {
        if (signal.aborted) break;
        this.options.logger.warn('failed to renew the lease', {
          lease: this.description,
          error: (e as Error).message,
        });
      }
      if (this.now() - lastRenew > this.renewDeadlineMs) {
        this.held = false;
        return 'lost';
      }
    }
    return 'stopped';
  }

  /** Gives the Lease up at once (a clean stop), so the next instance need not wait it out. */
  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    const current = await this.get();
    if (!current || current.spec?.holderIdentity !== this.identity) return;
    const now = this.now();
    await this.kube.custom.replaceNamespacedCustomObject(
      {
        ...GROUP,
        namespace: this.options.namespace,
        name: this.options.name,
        body: {
          ...current,
          spec: {
            ...current.spec,
            holderIdentity: '',
            leaseDurationSeconds: 1,
            renewTime: microTime(now),
          },
        },
      },
      this.kube.callOptions(),
    );
  }
}
