/**
 * TypeScript shapes of the Organization, Product and Release custom resources
 * (deploy/crds/organizations.yaml, products.yaml, releases.yaml): the fields placement reads and writes.
 */
import type { ObjectMeta } from '../clusters/types';

/** @public */
export const ORGANIZATION_TEAM_ROLES = [
  'platform-admin',
  'org-admin',
  'member',
  'viewer',
] as const;
/** @public */
export type OrganizationTeamRole = (typeof ORGANIZATION_TEAM_ROLES)[number];

/** @public */
export interface OrganizationTeam {
  name: string;
  role: OrganizationTeamRole;
  description?: string;
  members?: string[];
}

/** @public */
export interface OrganizationSpec {
  displayName: string;
  platform?: boolean;
  /** Clusters this org may deliver zones to. Managed by the platform org. */
  clusterAllowlist?: string[];
  teams?: OrganizationTeam[];
  [other: string]: unknown;
}

/** @public */
export interface OrganizationResource {
  apiVersion: string;
  kind: 'Organization';
  metadata: ObjectMeta;
  spec: OrganizationSpec;
  status?: { namespace?: string; [other: string]: unknown };
}

/** @public */
export const ZONE_ENVIRONMENTS = ['pre-release', 'release'] as const;
/** @public */
export type ZoneEnvironment = (typeof ZONE_ENVIRONMENTS)[number];

/** @public */
export const ZONE_APPROVALS = ['auto', 'human'] as const;
/** @public */
export type ZoneApproval = (typeof ZONE_APPROVALS)[number];

/**
 * One entry of a Product's `spec.delivery.zones`, in promotion order.
 *
 * @public
 */
export interface ProductZone {
  /** The zone's name, which is also its namespace. */
  name: string;
  /** The Cluster the zone runs on; empty means the management cluster. */
  cluster?: string;
  /** Default pre-release. */
  environment?: ZoneEnvironment;
  /** Empty means auto for pre-release and human for release. */
  approval?: ZoneApproval;
  valuesPath?: string;
  applicationPath?: string;
  verify?: {
    url: string;
    expectStatus?: number;
    contains?: string;
    soak?: string;
  };
}

/** @public */
export interface ProductSpec {
  displayName: string;
  description?: string;
  repos: Array<{ name: string; owner?: string; role?: string }>;
  currentRelease?: string;
  delivery?: {
    repo?: string;
    buildImage?: string;
    zones: ProductZone[];
  };
  [other: string]: unknown;
}

/** @public */
export interface ProductResource {
  apiVersion: string;
  kind: 'Product';
  metadata: ObjectMeta;
  spec: ProductSpec;
  status?: Record<string, unknown>;
}

/** @public */
export const RELEASE_PHASES = [
  'Pending',
  'Building',
  'Tagged',
  'Promoting',
  'AwaitingApproval',
  'Released',
  'Failed',
] as const;
/** @public */
export type ReleasePhase = (typeof RELEASE_PHASES)[number];

/** @public */
export const RELEASE_ZONE_PHASES = [
  'Pending',
  'AwaitingApproval',
  'Promoting',
  'Syncing',
  'Healthy',
  'Failed',
] as const;
/** @public */
export type ReleaseZonePhase = (typeof RELEASE_ZONE_PHASES)[number];

/**
 * A Release's progress in one zone (`status.zones[]`).
 *
 * @public
 */
export interface ReleaseZoneStatus {
  name: string;
  phase: ReleaseZonePhase;
  /** A short CamelCase code of why the zone is in its phase. */
  reason?: string;
  /** The reason in words, and what to do about it. */
  message?: string;
  environment?: string;
  approval?: string;
  /** The number of the gitops pull request that promoted the zone. */
  pullRequest?: number;
  pullRequestURL?: string;
  healthyAt?: string;
  /** Who approved a zone with `approval: human` (a user entity ref). */
  approvedBy?: string;
  /** When it was approved. */
  approvedAt?: string;
  startedAt?: string;
}

/** @public */
export interface ReleaseSpec {
  productRef: { name: string };
  commit?: string;
  version?: string;
  notes?: string;
  runRef?: { name: string };
}

/** @public */
export interface ReleaseStatus {
  phase?: ReleasePhase;
  message?: string;
  version?: string;
  commit?: string;
  image?: string;
  zones?: ReleaseZoneStatus[];
  [other: string]: unknown;
}

/** @public */
export interface ReleaseResource {
  apiVersion: string;
  kind: 'Release';
  metadata: ObjectMeta;
  spec: ReleaseSpec;
  status?: ReleaseStatus;
}
