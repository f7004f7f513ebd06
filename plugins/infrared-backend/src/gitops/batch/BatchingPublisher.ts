import { createHash } from 'node:crypto';
import type {
  GitopsChange,
  GitopsPublisher,
  GitopsPublishOptions,
  GitopsPublishResult,
  GitopsRepoDescription,
} from '@infrared-clusters/plugin-infrared-node';
import { BATCH_KEY_PREFIX } from '../change';
import { planBatches } from './planBatches';

export interface BatchingPublisherOptions {
  /** The files (written plus deleted) one combined change may hold. A single larger change still goes alone. */
  maxFilesPerChange: number;
  /** How long the queue must be quiet before it is published; default 10 ms. */
  quietMs?: number;
  /** The longest a change waits for others to join it; default 1 s. */
  maxWaitMs?: number;
}

interface Queued {
  change: GitopsChange;
  resolve(result: GitopsPublishResult): void;
  reject(error: unknown): void;
}

/**
 * Publishes the changes that arrive together as one change (one pull request), so a pass that
 * registers many clusters costs a handful of pull requests instead of one each. A change that
 * arrives alone is published as it is, under its own key. One publish runs at a time; what arrives
 * meanwhile forms the next batch. A change with a pending pull request is checked on its own.
 */
export class BatchingPublisher implements GitopsPublisher {
  private queue: Queued[] = [];
  private timer?: NodeJS.Timeout;
  private firstQueuedAt = 0;
  private inFlight = false;

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
    if (options?.pending) return this.inner.publish(change, options);
    return new Promise((resolve, reject) => {
      if (!this.queue.length) this.firstQueuedAt = Date.now();
      this.queue.push({ change, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.inFlight || !this.queue.length) return;
    if (this.timer) clearTimeout(this.timer);
    const waited = Date.now() - this.firstQueuedAt;
    const quiet = this.options.quietMs ?? 10;
    const delay = Math.max(
      0,
      Math.min(quiet, (this.options.maxWaitMs ?? 1000) - waited),
    );
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => undefined);
    }, delay);
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
