import { metrics as otelMetrics } from '@opentelemetry/api';
import {
  CONFLICT_REASONS,
  CREDENTIAL_EXPIRY_BUCKETS,
  REGISTRATION_STATES,
  type ConflictReason,
  type RegistrationSeries,
} from './types';

/**
 * Upstream's metric names (argocd-cluster-registrar `metrics.go`).
 *
 * @public
 */
export const REGISTRAR_METRIC_NAMES = {
  conflicts: 'argocd_cluster_registrar_conflicts_total',
  adoptions: 'argocd_cluster_registrar_adoptions_total',
  registrations: 'argocd_cluster_registrar_registrations',
  unrouted: 'argocd_cluster_registrar_unrouted_secrets',
} as const;

/**
 * The attributes (labels) of one metric series.
 *
 * @public
 */
export type RegistrarMetricAttributes = Record<string, string>;

/**
 * The part of an OpenTelemetry Meter the registrar uses. `metrics.getMeter(...)` from
 * `@opentelemetry/api` fits, and so does Backstage's alpha MetricsService (a thin wrapper over it).
 *
 * @public
 */
export interface RegistrarMeter {
  createCounter(
    name: string,
    options?: { description?: string; unit?: string },
  ): { add(value: number, attributes?: RegistrarMetricAttributes): void };
  createGauge(
    name: string,
    options?: { description?: string; unit?: string },
  ): { record(value: number, attributes?: RegistrarMetricAttributes): void };
}

/**
 * The registrar's four series, every label value from a closed set (no cluster or namespace names).
 *
 * @public
 */
export class RegistrarMetrics {
  private readonly conflictsTotal;
  private readonly adoptionsTotal;
  private readonly registrationsGauge;
  private readonly unroutedGauge;

  constructor(
    meter: RegistrarMeter = otelMetrics.getMeter('infrared-registrar'),
  ) {
    this.conflictsTotal = meter.createCounter(
      REGISTRAR_METRIC_NAMES.conflicts,
      {
        description:
          'Registrations refused because the cluster name or address was already spoken for, by reason.',
      },
    );
    this.adoptionsTotal = meter.createCounter(
      REGISTRAR_METRIC_NAMES.adoptions,
      {
        description:
          'Owned cluster Secrets recording no source namespace that were adopted by a matching namespace.',
      },
    );
    this.registrationsGauge = meter.createGauge(
      REGISTRAR_METRIC_NAMES.registrations,
      {
        description:
          'Cluster registrations this instance owns, by state and remaining credential lifetime.',
      },
    );
    this.unroutedGauge = meter.createGauge(REGISTRAR_METRIC_NAMES.unrouted, {
      description:
        'Owned cluster Secrets recording no source namespace, which no reconcile key can ever collect.',
    });
    // Published at zero from the start: an absent series makes `increase(...) > 0` unevaluable.
    for (const reason of CONFLICT_REASONS)
      this.conflictsTotal.add(0, { reason });
    this.adoptionsTotal.add(0);
    for (const state of REGISTRATION_STATES) {
      for (const credential_expiry of CREDENTIAL_EXPIRY_BUCKETS) {
        this.registrationsGauge.record(0, { state, credential_expiry });
      }
    }
    this.unroutedGauge.record(0);
  }

  conflict(reason: ConflictReason, count = 1): void {
    if (count > 0) this.conflictsTotal.add(count, { reason });
  }

  adoption(count = 1): void {
    if (count > 0) this.adoptionsTotal.add(count);
  }

  /** Sets every series of the registrations gauge (an audit). */
  registrations(series: RegistrationSeries[]): void {
    for (const s of series) {
      this.registrationsGauge.record(s.value, {
        state: s.state,
        credential_expiry: s.credentialExpiry,
      });
    }
  }

  unrouted(count: number): void {
    this.unroutedGauge.record(count);
  }
}
