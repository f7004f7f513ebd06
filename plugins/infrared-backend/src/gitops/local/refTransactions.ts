import type { ChildProcess } from 'node:child_process';

/** How long the `git update-ref --stdin` process stays up after its last transaction. */
const IDLE_MS = 1000;

interface Running {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  /** Settles when the process has exited, with its code. */
  exited: Promise<number | null>;
  done: boolean;
}

export interface TransactionOutcome {
  committed: boolean;
  /** When not committed: git's error and exit code. */
  stderr?: string;
  code?: number | null;
}

/**
 * Ref transactions through one `git update-ref --stdin` kept running between them (`start`, the commands,
 * `prepare`, `commit`), so a publish's two transactions, and those of a burst of publishes, start one git
 * process instead of one each: a spawn costs 5-20 ms, and the fork is paid on the event loop. A transaction
 * git refuses (a ref not at its expected value, or locked by another writer) ends the process; the next one
 * starts another. The process ends after a second without transactions.
 */
export class RefTransactions {
  private running?: Running;
  private idle?: NodeJS.Timeout;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly start: () => ChildProcess) {}

  apply(commands: string[]): Promise<TransactionOutcome> {
    const next = this.queue.then(() => this.applyNow(commands));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async applyNow(commands: string[]): Promise<TransactionOutcome> {
    clearTimeout(this.idle);
    if (this.running?.done) this.running = undefined; // ended between transactions (killed)
    const running = (this.running ??= this.spawn());
    running.stdout = '';
    running.child.stdin!.write(
      `start\n${commands.join('\n')}\nprepare\ncommit\n`,
    );
    const committed = await Promise.race([
      new Promise<boolean>(resolve => {
        const check = () => {
          if (running.stdout.includes('commit: ok\n')) {
            running.child.stdout!.off('data', check);
            resolve(true);
          }
        };
        running.child.stdout!.on('data', check);
        check();
      }),
      running.exited.then(() => false),
    ]);
    if (!committed) {
      this.running = undefined;
      return { committed, stderr: running.stderr, code: await running.exited };
    }
    this.idle = setTimeout(() => this.stop(), IDLE_MS).unref();
    return { committed };
  }

  private spawn(): Running {
    const child = this.start();
    const running: Running = {
      child,
      stdout: '',
      stderr: '',
      done: false,
      exited: new Promise(resolve => {
        child.on('error', () => resolve(null));
        child.on('close', code => resolve(code));
      }),
    };
    running.exited.then(() => (running.done = true));
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', chunk => (running.stdout += chunk));
    child.stderr!.on('data', chunk => (running.stderr += chunk));
    // git may exit (a refused transaction) before reading all it was sent: not an error of ours
    child.stdin!.on('error', () => {});
    return running;
  }

  /** Ends the kept process once the transactions under way are done; resolves when it has exited. */
  async close(): Promise<void> {
    await this.queue;
    clearTimeout(this.idle);
    const running = this.running;
    this.stop();
    await running?.exited;
  }

  private stop(): void {
    const running = this.running;
    this.running = undefined;
    running?.child.stdin!.end();
  }
}
