/* The Organization, Product and Release CRDs in deploy/crds and the placement types agree. */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  ORGANIZATION_TEAM_ROLES,
  RELEASE_PHASES,
  RELEASE_ZONE_PHASES,
  ZONE_APPROVALS,
  ZONE_ENVIRONMENTS,
} from './types';

const schema = (file: string) =>
  parse(
    fs.readFileSync(
      path.resolve(__dirname, '../../../../deploy/crds', file),
      'utf8',
    ),
  ).spec.versions[0].schema.openAPIV3Schema;

describe('placement types and the CRDs', () => {
  const release = schema('releases.yaml').properties.status.properties;
  const zone = release.zones.items.properties;
  const productZone =
    schema('products.yaml').properties.spec.properties.delivery.properties.zones
      .items.properties;
  const org = schema('organizations.yaml').properties.spec.properties;

  it('Release phases', () => {
    expect(release.phase.enum).toEqual([...RELEASE_PHASES]);
    expect(zone.phase.enum).toEqual([...RELEASE_ZONE_PHASES]);
  });

  it("keeps the gate's reason and message per zone (not pruned)", () => {
    expect(zone.reason).toEqual(expect.objectContaining({ type: 'string' }));
    expect(zone.message).toEqual({ type: 'string' });
    expect(zone.pullRequest.type).toBe('integer');
    expect(zone.pullRequestURL.type).toBe('string');
  });

  it('keeps who approved a zone and when (not pruned)', () => {
    expect(zone.approvedBy.type).toBe('string');
    expect(zone.approvedAt).toEqual(
      expect.objectContaining({ type: 'string', format: 'date-time' }),
    );
  });

  it('zone environments, approvals and org team roles', () => {
    expect(productZone.environment.enum).toEqual([...ZONE_ENVIRONMENTS]);
    expect(productZone.approval.enum).toEqual([...ZONE_APPROVALS]);
    expect(org.teams.items.properties.role.enum).toEqual([
      ...ORGANIZATION_TEAM_ROLES,
    ]);
    expect(org.clusterAllowlist['x-kubernetes-list-type']).toBe('set');
  });
});
