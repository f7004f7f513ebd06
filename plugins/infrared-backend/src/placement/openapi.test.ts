/* openapi.yaml states -common's placement rules: the same limits, patterns, enums and verdicts. */
import {
  CLUSTER_NAME_MAX_LENGTH,
  CLUSTER_NAME_PATTERN,
  MAX_ALLOWLIST_CLUSTERS,
  PLACEMENT_DECISIONS,
  RELEASE_PHASES,
  RELEASE_ZONE_PHASES,
  validateAllowlistRequest,
  validateSetZoneClusterRequest,
  ZONE_APPROVALS,
  ZONE_ENVIRONMENTS,
} from '@infrared-clusters/plugin-infrared-common';
import Ajv from 'ajv';
import { spec } from '../schema/openapi';

const schemas = spec.components.schemas as any;

describe('placement in openapi.yaml', () => {
  it('states the allowlist rules of -common', () => {
    const clusters = schemas.ClusterAllowlist.properties.clusters;
    expect(clusters.maxItems).toBe(MAX_ALLOWLIST_CLUSTERS);
    expect(clusters.uniqueItems).toBe(true);
    expect(clusters.items).toEqual({
      type: 'string',
      maxLength: CLUSTER_NAME_MAX_LENGTH,
      pattern: CLUSTER_NAME_PATTERN,
    });
    expect(schemas.SetZoneClusterRequest.properties.cluster.maxLength).toBe(
      CLUSTER_NAME_MAX_LENGTH,
    );
  });

  it('lists the enums of -common', () => {
    expect(schemas.PlacementDecision.enum).toEqual([...PLACEMENT_DECISIONS]);
    expect(schemas.ZoneEnvironment.enum).toEqual([...ZONE_ENVIRONMENTS]);
    expect(schemas.ZoneApproval.enum).toEqual([...ZONE_APPROVALS]);
    expect(schemas.ReleaseZonePhase.enum).toEqual([...RELEASE_ZONE_PHASES]);
    expect(schemas.ReleasePhase.enum).toEqual([...RELEASE_PHASES]);
  });

  const ajv = new Ajv({ strict: false, allErrors: true });
  const allowlist = ajv.compile(schemas.ClusterAllowlist);
  const zoneCluster = ajv.compile(schemas.SetZoneClusterRequest);
  const names = (n: number) => Array.from({ length: n }, (_, i) => `c-${i}`);

  it.each<[string, unknown]>([
    ['a list', { clusters: ['edge-demo', 'b1'] }],
    ['an empty list', { clusters: [] }],
    ['1,000 names', { clusters: names(1000) }],
    ['1,001 names', { clusters: names(1001) }],
    ['a repeat', { clusters: ['a', 'a'] }],
    ['a capital', { clusters: ['Edge'] }],
    ['43 characters', { clusters: ['x'.repeat(43)] }],
    ['42 characters', { clusters: ['x'.repeat(42)] }],
    ['a trailing hyphen', { clusters: ['edge-'] }],
    ['a number', { clusters: [1] }],
    ['no clusters', {}],
    ['another field', { clusters: [], more: 1 }],
  ])('an allowlist with %s gets one verdict from both', (_name, body) => {
    expect(allowlist(body)).toBe('value' in validateAllowlistRequest(body));
  });

  it.each<[string, unknown]>([
    ['a name', { cluster: 'edge-demo' }],
    ['the management cluster', { cluster: '' }],
    ['a capital', { cluster: 'Edge' }],
    ['null', { cluster: null }],
    ['nothing', {}],
    ['another field', { cluster: 'a', zone: 'b' }],
  ])("a zone's cluster with %s gets one verdict from both", (_name, body) => {
    expect(zoneCluster(body)).toBe(
      'value' in validateSetZoneClusterRequest(body),
    );
  });
});
