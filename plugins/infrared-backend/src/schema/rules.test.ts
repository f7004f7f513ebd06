/*
 * One rule set: -common's CLUSTER_FIELD_RULES. openapi.yaml, the CRDs (the chart's and their
 * copies) and the scaffolder template get it from scripts/field-rules.js, and the API's validator
 * is built from it: these tests fail when a file was not regenerated, and check that every
 * sample gets one verdict everywhere.
 */
import {
  CLUSTER_FIELD_RULES,
  CONDITION_STATUS_RULE,
  validateRegisterClusterRequest,
} from '@infrared-clusters/plugin-infrared-common';
import Ajv from 'ajv';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import {
  RULE_SAMPLES,
  type SampledField,
  type Verdict,
} from './__testUtils__/ruleSamples';

type Json = any;

const openapi: Json = parse(
  fs.readFileSync(path.resolve(__dirname, 'openapi.yaml'), 'utf8'),
);
const CRDS = path.resolve(__dirname, '../../../../deploy/crds');
const crds: Json[] = fs
  .readdirSync(CRDS)
  .filter(f => f.endsWith('.yaml'))
  .flatMap(f =>
    parseAllDocuments(fs.readFileSync(path.join(CRDS, f), 'utf8')).map(d =>
      d.toJS(),
    ),
  );
const rootOf = (crd: Json) => crd.spec.versions[0].schema.openAPIV3Schema;
const clusterCrd = rootOf(
  crds.find(c => c.metadata.name === 'clusters.infrared.darkshift.io'),
);
const crdSpec = clusterCrd.properties.spec.properties;

/** The Cluster CRD's name rule, a CEL expression, read back into a limit and a pattern. */
function crdNameRule(): { maxLength: number; pattern: string } {
  const [{ rule }] = clusterCrd['x-kubernetes-validations'];
  const m =
    /^self\.metadata\.name\.size\(\) <= (\d+) && self\.metadata\.name\.matches\('([^']+)'\)$/.exec(
      rule,
    );
  if (!m) throw new Error(`unexpected name rule in the CRD: ${rule}`);
  return { maxLength: Number(m[1]), pattern: m[2] };
}

// eslint-disable-next-line @backstage/no-relative-monorepo-imports
const fieldRules = require('../../../../scripts/field-rules.js');

const ROOT = path.resolve(__dirname, '../../../..');
const SPEC = 'plugins/infrared-backend/src/schema/openapi.yaml';
const TEMPLATE = 'examples/templates/new-cluster/template.yaml';
const RULES = {
  ...CLUSTER_FIELD_RULES,
  conditionStatus: CONDITION_STATUS_RULE,
};

describe('the files that state the rules are generated from CLUSTER_FIELD_RULES', () => {
  it('are up to date (node scripts/field-rules.js)', () => {
    expect(fieldRules.staleFiles(ROOT, RULES)).toEqual([]);
  });

  it('are reported stale when a rule changes, and written anew with it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-rules-'));
    try {
      for (const file of fieldRules.FILES) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
      }
      const changed = {
        ...RULES,
        flavor: { enum: ['k3s', 'eks', 'gke'] },
        name: { ...RULES.name, maxLength: 40 },
        conditionStatus: { enum: ['True', 'False', 'Unknown', 'Maybe'] },
      };
      expect(fieldRules.staleFiles(dir, changed)).toEqual(fieldRules.FILES);
      fieldRules.write(dir, changed);
      expect(fieldRules.staleFiles(dir, changed)).toEqual([]);
      const spec = parse(fs.readFileSync(path.join(dir, SPEC), 'utf8'));
      expect(spec.components.schemas.ClusterFlavor.enum).toEqual([
        'k3s',
        'eks',
        'gke',
      ]);
      expect(
        spec.components.schemas.RegisterClusterRequest.properties.name
          .maxLength,
      ).toBe(40);
      const crd = parse(
        fs.readFileSync(
          path.join(dir, 'deploy/helm/infrared-clusters/crds/clusters.yaml'),
          'utf8',
        ),
      );
      const root = crd.spec.versions[0].schema.openAPIV3Schema;
      expect(root['x-kubernetes-validations'][0].rule).toMatch(
        /^self\.metadata\.name\.size\(\) <= 40 && /,
      );
      expect(root.properties.spec.properties.flavor.enum).toContain('gke');
      expect(
        root.properties.status.properties.conditions.items.properties.status
          .enum,
      ).toEqual(['True', 'False', 'Unknown', 'Maybe']);
      const template = parse(fs.readFileSync(path.join(dir, TEMPLATE), 'utf8'));
      const form = template.spec.parameters[0].properties;
      expect(form.flavor.enum).toEqual(['k3s', 'eks', 'gke']);
      expect(form.name.maxLength).toBe(40);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every sample gets one verdict: the API validator, openapi.yaml, the CRD', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ components: openapi.components }, 'openapi');

  const apiVerdict = (field: SampledField, value: string): Verdict => {
    const body =
      field === 'name'
        ? { name: value, inCluster: true }
        : { name: 'edge', inCluster: true, [field]: value };
    const result = validateRegisterClusterRequest(body);
    const refused =
      'errors' in result && result.errors.some(e => e.field === field);
    return refused ? 'refuse' : 'accept';
  };
  const openapiVerdict = (field: SampledField, value: string): Verdict =>
    ajv.validate(
      {
        $ref: `openapi#/components/schemas/RegisterClusterRequest/properties/${field}`,
      },
      value,
    )
      ? 'accept'
      : 'refuse';
  const crdVerdict = (field: SampledField, value: string): Verdict => {
    if (field === 'name') {
      const { maxLength, pattern } = crdNameRule();
      const ok = value.length <= maxLength && new RegExp(pattern).test(value);
      return ok ? 'accept' : 'refuse';
    }
    return ajv.validate(crdSpec[field], value) ? 'accept' : 'refuse';
  };

  it.each(RULE_SAMPLES.map(s => [s.field, JSON.stringify(s.value), s]))(
    '%s %s',
    (_field, _shown, { field, value, rule, api }) => {
      expect({
        api: apiVerdict(field, value),
        openapi: openapiVerdict(field, value),
        crd: crdVerdict(field, value),
      }).toEqual({ api: api?.verdict ?? rule, openapi: rule, crd: rule });
    },
  );

  it('covers every field of the rule set but the type, both ways', () => {
    const covered = new Set(RULE_SAMPLES.map(s => `${s.field} ${s.rule}`));
    for (const field of Object.keys(CLUSTER_FIELD_RULES)) {
      if (field === 'type') continue;
      expect(covered).toContain(`${field} accept`);
      expect(covered).toContain(`${field} refuse`);
    }
  });
});
