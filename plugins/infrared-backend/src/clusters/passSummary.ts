import type { RequestCounter } from '@infrared-clusters/infrared-kube';

/** What one pass did, for logs and the benchmark. */
export interface ReconcilePassSummary {
  clusters: number;
  /** Requests sent to the management cluster's API during the pass. */
  requests: number;
  requestsByVerb: Record<string, number>;
  statusWrites: number;
  secretWrites: number;
  published: number;
  failed: number;
  durationMs: number;
}

export interface PassCounters {
  statusWrites: number;
  secretWrites: number;
  published: number;
  failed: number;
}

/** Counts a pass: its writes, and the requests it sent (from the API's counter). */
export class PassTally {
  readonly started = Date.now();
  readonly counters: PassCounters = {
    statusWrites: 0,
    secretWrites: 0,
    published: 0,
    failed: 0,
  };
  /** Clusters another run in this process had in hand (see ClusterReconciler.reconcile). */
  skipped = 0;
  private readonly before: Record<string, number>;

  constructor(private readonly counter: RequestCounter) {
    this.before = counter.byVerb();
  }

  summary(clusters: number): ReconcilePassSummary {
    const requestsByVerb: Record<string, number> = {};
    for (const [verb, n] of Object.entries(this.counter.byVerb())) {
      const delta = n - (this.before[verb] ?? 0);
      if (delta) requestsByVerb[verb] = delta;
    }
    return {
      clusters: clusters - this.skipped,
      requests: Object.values(requestsByVerb).reduce((a, b) => a + b, 0),
      requestsByVerb,
      ...this.counters,
      durationMs: Date.now() - this.started,
    };
  }
}
