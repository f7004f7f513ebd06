import {
  KubeApiError,
  type KubeClient,
} from '@infrared-clusters/infrared-kube';
import type { LeaseRecord } from './decide';

/** The Lease as stored (coordination.k8s.io/v1). */
export interface LeaseObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: {
    name: string;
    namespace: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
  };
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

/** MicroTime as the API server writes it: RFC 3339 with six fractional digits. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function recordOf(lease: LeaseObject): LeaseRecord {
  const renew = lease.spec?.renewTime ? Date.parse(lease.spec.renewTime) : NaN;
  const seconds = lease.spec?.leaseDurationSeconds;
  return {
    holder: lease.spec?.holderIdentity ?? '',
    renewTimeMs: Number.isFinite(renew) ? renew : undefined,
    durationMs: seconds && seconds > 0 ? seconds * 1000 : undefined,
    resourceVersion: lease.metadata.resourceVersion ?? '',
  };
}

/** A create or replace met another writer's (AlreadyExists, Conflict): look again. */
export class LeaseRaceError extends Error {}

/**
 * The installation Lease on the management cluster: one GET per look, one POST or PUT per write
 * (the PUT carries the resourceVersion read, so of two writers one wins). Through a client of its
 * own, so renewals never count among a reconcile pass's requests.
 */
export class InstallationLease {
  readonly path: string;

  constructor(
    private readonly client: KubeClient,
    readonly namespace: string,
    readonly name: string,
  ) {
    this.path = `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`;
  }

  get description(): string {
    return `${this.namespace}/${this.name}`;
  }

  /** Requests sent so far (tests, the bench). */
  get requests(): number {
    return this.client.counter.total;
  }

  async read(): Promise<LeaseObject | undefined> {
    const res = await this.client.must<LeaseObject>(
      'GET',
      this.path,
      undefined,
      [404],
    );
    return res.status === 404 ? undefined : res.body;
  }

  /** Writes the Lease held by `holder` now: a create when `current` is undefined, else a replace. */
  async write(
    current: LeaseObject | undefined,
    holder: string,
    durationMs: number,
    now: number,
  ): Promise<LeaseObject> {
    const previous = current?.spec;
    const taking = previous?.holderIdentity !== holder;
    const spec: LeaseObject['spec'] = {
      holderIdentity: holder,
      leaseDurationSeconds: Math.ceil(durationMs / 1000),
      acquireTime:
        taking || !previous?.acquireTime
          ? microTime(now)
          : previous.acquireTime,
      renewTime: microTime(now),
      leaseTransitions:
        (previous?.leaseTransitions ?? 0) +
        (taking && previous?.holderIdentity ? 1 : 0),
    };
    const body: LeaseObject = current
      ? { ...current, spec }
      : {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: {
            name: this.name,
            namespace: this.namespace,
            labels: { 'app.kubernetes.io/part-of': 'infrared' },
          },
          spec,
        };
    try {
      const res = current
        ? await this.client.must<LeaseObject>('PUT', this.path, body)
        : await this.client.must<LeaseObject>(
            'POST',
            this.path.slice(0, this.path.lastIndexOf('/')),
            body,
          );
      return res.body;
    } catch (e) {
      if (e instanceof KubeApiError && e.code === 409) {
        throw new LeaseRaceError(e.message);
      }
      throw e;
    }
  }
}
