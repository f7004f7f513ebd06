import { createHash } from 'node:crypto';
import type {
  GitopsChange,
  GitopsPublisher,
  GitopsPublishOptions,
  GitopsPublishResult,
  GitopsRepoDescription,
} from '@infrared-clusters/plugin-infrared-node';
import { BATCH_KEY_PREFIX, PUBLISHER_CLOSED_MESSAGE } from '../change';
import { planBatches } from './planBatches';

export interface BatchingPublisherOptions {
  /** The files (written plus deleted) one combined change may hold. A single larger change still goes alone. */
  maxFilesPerChange: number;
  /** On a quiet system: how long the queue must be quiet before it is published; default 10 ms. */
  quietMs?: number;
  /** Under a burst: how long arrivals must pause before the batch goes (and the burst ends); default 1 s. */
  burstQuietMs?: number;
  /** The longest a change waits for others to join it; default 30 s (a burst of 6 a second still fills most of a batch of 250 registrations). */
  maxWaitMs?: number;
}

interface Queued {
  change: GitopsChange;
  resolve(result: GitopsPublishResult): void;
  reject(error: unknown): void;
}

const filesOf = (change: GitopsChange) =>
  Object.keys(change.files).length + (change.deletions?.length ?? 0);

/**
 * Publishes the changes that arrive together as one change (one pull request), so a pass that
 * registers many clusters costs a handful of pull requests instead of one each. A change that
 * arrives alone is published as it is, under its own key. One publish runs at a time; what arrives
 * meanwhile forms the next batch. A change with a pending pull request is checked on its own.
 *
 * The window adapts to the arrivals: on a quiet system a change goes after `quietMs`. A change that
 * arrives while a publish is in flight starts a burst: from then on a batch keeps collecting until
 * the arrivals pause for `burstQuietMs` (which ends the burst), it holds `maxFilesPerChange` files,
 * or its first change waited `maxWaitMs`. So 1,000 registrations through the API over a minute make
 * a handful of pull requests, and a lone one on a quiet system is not held back (issue 25).
 */
export class BatchingPublisher implements GitopsPublisher {
  private queue: Queued[] = [];
  private queuedFiles = 0;
  private timer?: NodeJS.Timeout;
  private firstQueuedAt = 0;
  private lastArrivalAt = -Infinity;
  private inFlight = false;
  private burst = false;
  private closed = false;
  /** The publish under way, settled or not. */
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly inner: GitopsPublisher,
    private readonly options: BatchingPublisherOptions,
  ) {}

  describe(): Promise<GitopsRepoDescription> {
    return this.inner.describe();
  }

  publish(
    change: GitopsChange,
    options?: GitopsPublishOptions,
  ): Promise<GitopsPublishResult> {
    if (this.closed) return Promise.reject(new Error(PUBLISHER_CLOSED_MESSAGE));
    if (options?.pending) return this.inner.publish(change, options);
    return new Promise((resolve, reject) => {
      const now = Date.now();
      if (now - this.lastArrivalAt >= this.burstQuietMs) this.burst = false;
      if (this.inFlight) this.burst = true;
      this.lastArrivalAt = now;
      if (!this.queue.length) this.firstQueuedAt = now;
      this.queue.push({ change, resolve, reject });
      this.queuedFiles += filesOf(change);
      this.schedule();
    });
  }

  /**
   * Stops batching: the changes still queued fail (their next pass publishes them again), the
   * publish under way is waited for, then the inner publisher is closed.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const queued = this.queue;
    this.queue = [];
    this.queuedFiles = 0;
    queued.forEach(q => q.reject(new Error(PUBLISHER_CLOSED_MESSAGE)));
    await this.flushing;
    await this.inner.close?.();
  }

  private get burstQuietMs(): number {
    return this.options.burstQuietMs ?? 1000;
  }

  /** How long the queue waits yet before its batch goes. */
  private delay(now: number): number {
    const left =
      (this.options.maxWaitMs ?? 30_000) - (now - this.firstQueuedAt);
    if (!this.burst) return Math.min(this.options.quietMs ?? 10, left);
    if (this.queuedFiles >= this.options.maxFilesPerChange) return 0;
    return Math.min(this.burstQuietMs - (now - this.lastArrivalAt), left);
  }

  private schedule(): void {
    if (this.closed || this.inFlight || !this.queue.length) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flush().catch(() => undefined);
    }, Math.max(0, this.delay(Date.now())));
  }

  private async flush(): Promise<void> {
    if (this.inFlight || !this.queue.length) return;
    this.inFlight = true;
    const { batch, rest } = planBatches(
      this.queue,
      q => q.change,
      this.options.maxFilesPerChange,
    );
    this.queue = rest;
    this.queuedFiles = rest.reduce((n, q) => n + filesOf(q.change), 0);
    if (rest.length) this.firstQueuedAt = Date.now();
    try {
      const result = await this.inner.publish(
        batch.length === 1
          ? batch[0].change
          : combineChanges(batch.map(q => q.change)),
      );
      batch.forEach(q => q.resolve(result));
    } catch (e) {
      batch.forEach(q => q.reject(e));
    } finally {
      this.inFlight = false;
      this.schedule();
    }
  }
}

/** One change holding all of `changes`, under a key that the same set of changes always gets. */
export function combineChanges(changes: readonly GitopsChange[]): GitopsChange {
  const keys = changes.map(c => c.key).sort();
  const digest = createHash('sha256')
    .update(keys.join('\n'))
    .digest('hex')
    .slice(0, 16);
  const named = keys.slice(0, 3).join(', ');
  const more = keys.length > 3 ? ` and ${keys.length - 3} more` : '';
  return {
    key: `${BATCH_KEY_PREFIX}${digest}`,
    title: `Infrared: ${changes.length} changes (${named}${more})`,
    body: changes.map(c => `## ${c.title}\n\n${c.body}`).join('\n\n'),
    files: Object.assign({}, ...changes.map(c => c.files)),
    deletions: changes.flatMap(c => c.deletions ?? []),
  };
}
