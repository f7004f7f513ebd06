import type { RegistrarPassReport } from '../executor';
import { PendingScope, type RegistrarScope } from '../scope';
import type { RegistrarWatcher } from '../watch';

/** Full passes a watch asks for start at least this far apart (a burst of events makes one or two). */
const MIN_WATCH_PASS_GAP_MS = 1_000;
/** Scoped passes (a few requests each) start at least this far apart. */
const MIN_SCOPED_PASS_GAP_MS = 100;

/**
 * A full pass, then one every `intervalMs` after the previous one ends (the full resync), and one
 * soon after the watches see a change, scoped to what changed (`scope`) unless a watch asked for a
 * full one, until the signal aborts.
 */
export async function passLoop(
  intervalMs: number,
  signal: AbortSignal,
  pass: (
    signal: AbortSignal,
    scope?: RegistrarScope,
  ) => Promise<RegistrarPassReport>,
  watch?: (
    signal: AbortSignal,
    onChange: (reason: string, scope?: RegistrarScope) => void,
  ) => RegistrarWatcher,
): Promise<void> {
  const changes = new PendingScope();
  let wakeUp: (() => void) | undefined;
  const watcher = watch?.(signal, (_reason, scope) => {
    changes.add(scope);
    wakeUp?.();
  });
  const wait = (ms: number, wakeable: boolean) =>
    new Promise<void>(resolve => {
      // An abort during the pass has fired already: no listener would hear it.
      if (signal.aborted) {
        resolve();
        return;
      }
      let timer: ReturnType<typeof setTimeout> | undefined = undefined;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wakeUp = undefined;
        resolve();
      };
      timer = setTimeout(done, ms);
      if (wakeable) wakeUp = done;
      signal.addEventListener('abort', done, { once: true });
    });
  let scope: RegistrarScope | undefined = undefined;
  while (!signal.aborted) {
    const started = Date.now();
    const report = await pass(signal, scope);
    // Once the reads succeeded (a namespace that failed later does not stop the watches).
    if (watcher && report.resourceVersion) {
      watcher.setManaged(report.managedNamespaces);
      watcher.start(report.resourceVersion);
    }
    if (!changes.pending) await wait(intervalMs, true);
    if (!changes.pending) {
      scope = undefined; // the interval: the full resync
      continue;
    }
    const gap = changes.isFull ? MIN_WATCH_PASS_GAP_MS : MIN_SCOPED_PASS_GAP_MS;
    await wait(Math.max(0, started + gap - Date.now()), false);
    scope = changes.take();
  }
}
