/*
 * One rule set: -common's CLUSTER_FIELD_RULES. openapi.yaml and the Cluster CRD state it again
 * in YAML, and the API's validator is built from it; these tests fail when any of them drifts.
 */
import {
  CLUSTER_FIELD_RULES,
  CONDITION_STATUS_RULE,
  validateRegisterClusterRequest,
} from '@infrared-clusters/plugin-infrared-common';
import Ajv from 'ajv';
import fs from 'node:fs';
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

function resolve(node: Json): Json {
  if (!node?.$ref) return node;
  const parts = node.$ref.replace(/^#\//, '').split('/');
  return resolve(parts.reduce((o: Json, k: string) => o[k], openapi));
}
const schemas = openapi.components.schemas;
const requestField = (field: string) =>
  resolve(schemas.RegisterClusterRequest.properties[field]);
/** What a JSON Schema node states of a string rule. */
const ruleOf = (node: Json) => ({
  pattern: node.pattern,
  maxLength: node.maxLength,
  enum: node.enum,
});
const expected = (rule: object) => ({
  pattern: undefined,
  maxLength: undefined,
  enum: undefined,
  ...rule,
});

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

describe('openapi.yaml and the Cluster CRD state the rules of -common', () => {
  const fields = Object.keys(CLUSTER_FIELD_RULES).filter(
    f => f !== 'name' && f !== 'type',
  ) as Array<keyof typeof CLUSTER_FIELD_RULES>;

  it.each(fields)(
    'POST /v1/clusters %s: the same pattern, length and values',
    field => {
      expect(ruleOf(requestField(field))).toEqual(
        expected(CLUSTER_FIELD_RULES[field]),
      );
    },
  );

  it.each(fields)(
    'Cluster spec.%s: the same pattern, length and values',
    field => {
      expect(ruleOf(crdSpec[field])).toEqual(
        expected(CLUSTER_FIELD_RULES[field]),
      );
    },
  );

  it('the name: the same pattern and length in the request and in the CRD rule', () => {
    expect(ruleOf(requestField('name'))).toEqual(
      expected(CLUSTER_FIELD_RULES.name),
    );
    expect(crdNameRule()).toEqual(CLUSTER_FIELD_RULES.name);
  });

  it('the Cluster view: type, flavor and provider take the same values', () => {
    const view = schemas.Cluster.properties;
    for (const field of ['type', 'flavor', 'provider'] as const) {
      expect([field, resolve(view[field]).enum]).toEqual([
        field,
        CLUSTER_FIELD_RULES[field].enum,
      ]);
    }
    expect(crdSpec.type.enum).toEqual(CLUSTER_FIELD_RULES.type.enum);
  });

  it("a condition's status takes the same values in the API and in every CRD", () => {
    expect(schemas.Condition.properties.status.enum).toEqual(
      CONDITION_STATUS_RULE.enum,
    );
    for (const crd of crds) {
      const condition =
        rootOf(crd).properties.status.properties.conditions.items;
      expect([crd.metadata.name, condition.properties.status.enum]).toEqual([
        crd.metadata.name,
        CONDITION_STATUS_RULE.enum,
      ]);
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
