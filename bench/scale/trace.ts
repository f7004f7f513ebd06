/*
 * Where a new registration's time goes (bench/scale step 4): marks taken at the seams of the
 * backend's parts (the REST answer, the fast path's start, the management API's requests, the
 * probe, the publisher's queue and its publish), relative to the POST. Registrations are traced
 * one at a time, so every mark belongs to the one in flight.
 */
import type {
  ClusterProber,
  ManagementApi,
} from '../../plugins/infrared-kube/src';
import type { GitopsPublisher } from '@infrared-clusters/plugin-infrared-node';

export class Trace {
  private start?: number;
  private marks: [string, number][] = [];
  private readonly runs: [string, number][][] = [];

  begin(): void {
    this.start = performance.now();
    this.marks = [];
  }

  mark(label: string): void {
    if (this.start !== undefined) {
      this.marks.push([label, performance.now() - this.start]);
    }
  }

  end(): void {
    this.mark('Registered seen (GET every 10 ms)');
    this.runs.push(this.marks);
    this.start = undefined;
  }

  /** `fn` with a mark when it is called and when it settles. */
  wrap<A extends unknown[], R>(
    label: string,
    fn: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return (...args) => {
      this.mark(`${label} called`);
      return fn(...args).finally(() => this.mark(`${label} done`));
    };
  }

  api(api: ManagementApi): ManagementApi {
    const methods = <T extends object>(group: string, target: T): T =>
      new Proxy(target, {
        get: (t, key) => {
          const value = Reflect.get(t, key);
          return typeof value === 'function'
            ? this.wrap(`${group}.${String(key)}`, value.bind(t))
            : value;
        },
      });
    return {
      clusters: methods('clusters', api.clusters),
      secrets: methods('secrets', api.secrets),
      counter: api.counter,
    };
  }

  prober(prober: ClusterProber): ClusterProber {
    return { probe: this.wrap('probe', prober.probe.bind(prober)) };
  }

  publisher(label: string, publisher: GitopsPublisher): GitopsPublisher {
    return {
      describe: this.wrap(`${label}: describe`, () => publisher.describe()),
      publish: this.wrap(label, (change, options) =>
        publisher.publish(change, options),
      ),
    };
  }

  /** Each registration's marks (ms after its POST was sent), one line each, then the median of each mark. */
  print(): void {
    this.runs.forEach((marks, i) =>
      console.log(
        `    #${i}: ${marks
          .map(([label, ms]) => `${label} ${Math.round(ms)}`)
          .join(', ')}`,
      ),
    );
    const first = this.runs[0] ?? [];
    const median = (label: string, at: number) => {
      const all = this.runs
        .map(m => m.filter(([l]) => l === label)[at]?.[1])
        .filter((ms): ms is number => ms !== undefined)
        .sort((a, b) => a - b);
      return all[Math.floor(all.length / 2)];
    };
    const seen = new Map<string, number>();
    const medians = first.map(([label]) => {
      const at = seen.get(label) ?? 0;
      seen.set(label, at + 1);
      return `${label} ${Math.round(median(label, at))}`;
    });
    console.log(`    median: ${medians.join(', ')}`);
  }
}

/** The one trace of this process. */
export const trace = new Trace();
