import type {
  DiscoveredClusterInput,
  RegistrarChildPass,
} from '@infrared-clusters/plugin-infrared-common';
import type {
  RegistrarChildOutcome,
  RegistrarPassReport,
} from '@infrared-clusters/infrared-registrar';

/** What the Clusters page is told of one child: the last pass's outcome, keyed by namespace. */
export interface RegistrarChildStatus {
  namespace: string;
  cluster?: string;
  pass: RegistrarChildPass;
}

/**
 * The registrar's last pass per child in this backend (memory: the pass runs on the replica
 * holding the registrar's Lease, so another replica has none). Each pass replaces the children it
 * evaluated; `since` stays while the outcome (and its reason) stays the same.
 */
export class RegistrarStatus {
  private children = new Map<string, RegistrarChildStatus>();
  private recorded = 0;

  /** Grows with every pass recorded: what the Clusters page keeps is kept until it grows. */
  get version(): number {
    return this.recorded;
  }

  /** Takes a pass's outcomes (an aborted or dry-run pass changes nothing). */
  record(report: RegistrarPassReport): void {
    if (report.aborted || report.dryRun) return;
    const at = new Date(
      Date.parse(report.startedAt) + report.durationMs,
    ).toISOString();
    // A scoped pass evaluated only the namespaces it read: the others keep their last outcome.
    const next = report.scope
      ? new Map(this.children)
      : new Map<string, RegistrarChildStatus>();
    for (const n of report.scope?.namespaces ?? []) next.delete(n);
    for (const o of report.outcomes ?? []) {
      const before = this.children.get(o.namespace)?.pass;
      const same =
        before && before.outcome === o.outcome && before.reason === o.reason;
      next.set(o.namespace, {
        namespace: o.namespace,
        ...(o.cluster && { cluster: o.cluster }),
        pass: passOf(o, at, same ? before.since : at),
      });
    }
    this.children = next;
    this.recorded++;
  }

  get(namespace: string): RegistrarChildStatus | undefined {
    return this.children.get(namespace);
  }

  list(): RegistrarChildStatus[] {
    return [...this.children.values()];
  }
}

function passOf(
  o: RegistrarChildOutcome,
  at: string,
  since: string,
): RegistrarChildPass {
  return {
    outcome: o.outcome,
    at,
    since,
    ...(o.reason && { reason: o.reason }),
    ...(o.message && { message: o.message }),
  };
}

/**
 * The children the Clusters page lists: each registered one (from its Argo CD Secret) with its last
 * pass, and each one the last pass skipped or failed without a Secret (named by the cluster it
 * claims), so a child that never reached Argo CD shows why. Without a status: the Secrets alone.
 */
export function withRegistrarStatus(
  listed: DiscoveredClusterInput[],
  status?: Pick<RegistrarStatus, 'list'>,
): DiscoveredClusterInput[] {
  if (!status) return listed;
  const children = status.list();
  const bySource = new Map(children.map(c => [c.namespace, c]));
  const out = listed.map(child => {
    const known = bySource.get(child.sourceNamespace);
    return known ? { ...child, lastPass: known.pass } : child;
  });
  const names = new Set(listed.map(c => c.name));
  const sources = new Set(listed.map(c => c.sourceNamespace));
  for (const c of children) {
    if (!c.cluster || names.has(c.cluster) || sources.has(c.namespace))
      continue;
    if (c.pass.outcome !== 'skipped' && c.pass.outcome !== 'failed') continue;
    names.add(c.cluster);
    out.push({
      name: c.cluster,
      server: '',
      sourceNamespace: c.namespace,
      provider: '',
      state: 'active',
      registered: false,
      lastPass: c.pass,
    });
  }
  return out;
}
