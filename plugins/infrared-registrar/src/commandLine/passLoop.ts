import type { RegistrarPassReport } from '../executor';
import type { RegistrarWatcher } from '../watch';

/** Watch-triggered passes start at least this far apart (a burst of events makes one or two passes). */
const MIN_WATCH_PASS_GAP_MS = 1_000;

/**
 * A pass, then one every `intervalMs` after the previous one ends (the full resync), and one soon
 * after the watches see a change, until the signal aborts.
 */
export async function passLoop(
  intervalMs: number,
  signal: AbortSignal,
  pass: (signal: AbortSignal) => Promise<RegistrarPassReport>,
  watch?: (
    signal: AbortSignal,
    onChange: (reason: string) => void,
  ) => RegistrarWatcher,
): Promise<void> {
  let woken = false;
  let wakeUp: (() => void) | undefined;
  const watcher = watch?.(signal, () => {
    woken = true;
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
  while (!signal.aborted) {
    woken = false;
    const started = Date.now();
    const report = await pass(signal);
    // Once the reads succeeded (a namespace that failed later does not stop the watches).
    if (watcher && report.resourceVersion) {
      watcher.setManaged(report.managedNamespaces);
      watcher.start(report.resourceVersion);
    }
    if (!woken) await wait(intervalMs, true);
    if (woken) {
      await wait(
        Math.max(0, started + MIN_WATCH_PASS_GAP_MS - Date.now()),
        false,
      );
    }
  }
}
