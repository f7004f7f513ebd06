#!/usr/bin/env node
/*
 * Writes the Cluster's field rules from their one source, -common's CLUSTER_FIELD_RULES and
 * CONDITION_STATUS_RULE (plugins/infrared-common/src/clusters/rules.ts), into the files that
 * state them again in YAML:
 *
 *   plugins/infrared-backend/src/schema/openapi.yaml   POST /v1/clusters, the Cluster view, the
 *                                                      allowlist's names, a condition's status
 *   deploy/helm/infrared-clusters/crds/*.yaml          the Cluster CRD's spec fields and name rule
 *   (and their copies in deploy/crds/)                 (CEL), every CRD's condition status
 *   examples/templates/new-cluster/template.yaml       the scaffolder form's name, region, flavor
 *                                                      and provider
 *
 * Only the values are rewritten (pattern, maxLength, enum, the CEL rule and its message), in
 * place: comments, order and everything else in those files stay as written. A place listed
 * below that is missing, or states a rule key the rule does not have, is an error.
 *
 *   node scripts/field-rules.js          # rewrites the files
 *   node scripts/field-rules.js --check  # lists files that differ, exits 1 if any
 *
 * After rewriting, run `node scripts/openapi-generate.js` (the generated router embeds the spec).
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const YAML = require(require.resolve('yaml', {
  paths: [path.join(root, 'plugins/infrared-backend')],
}));

/** The rule set, read from -common's TypeScript source with Backstage's node transform. */
function loadRules() {
  require('@backstage/cli/config/nodeTransform.cjs');
  const rules = require(path.join(
    root,
    'plugins/infrared-common/src/clusters/rules.ts',
  ));
  return {
    ...rules.CLUSTER_FIELD_RULES,
    conditionStatus: rules.CONDITION_STATUS_RULE,
  };
}

const SPEC = 'plugins/infrared-backend/src/schema/openapi.yaml';
const TEMPLATE = 'examples/templates/new-cluster/template.yaml';
const CRDS = ['clusters', 'organizations', 'products', 'releases'];
const CHART_CRD = name => `deploy/helm/infrared-clusters/crds/${name}.yaml`;
const COPY_CRD = name => `deploy/crds/${name}.yaml`;

const schemas = ['components', 'schemas'];
const request = [...schemas, 'RegisterClusterRequest', 'properties'];
const crdRoot = ['spec', 'versions', 0, 'schema', 'openAPIV3Schema'];
const crdSpec = [...crdRoot, 'properties', 'spec', 'properties'];
const crdCondition = [
  ...crdRoot,
  ...['properties', 'status', 'properties', 'conditions'],
  ...['items', 'properties', 'status'],
];
const form = ['spec', 'parameters', 0, 'properties'];

/** Where each file states a rule: [YAML path, rule]; `nameRule`: the CRD's CEL rule of the name. */
function places(file) {
  if (file === SPEC) {
    return [
      [[...request, 'name'], 'name'],
      [[...request, 'region'], 'region'],
      [[...request, 'server'], 'server'],
      [[...schemas, 'ClusterType'], 'type'],
      [[...schemas, 'ClusterFlavor'], 'flavor'],
      [[...schemas, 'ClusterProvider'], 'provider'],
      [
        [...schemas, 'ClusterAllowlist', 'properties', 'clusters', 'items'],
        'name',
      ],
      [[...schemas, 'Condition', 'properties', 'status'], 'conditionStatus'],
    ];
  }
  if (file === TEMPLATE) {
    return ['name', 'flavor', 'provider', 'region'].map(f => [[...form, f], f]);
  }
  const crd = /\/(\w+)\.yaml$/.exec(file)[1];
  const condition = [[crdCondition, 'conditionStatus']];
  if (crd !== 'clusters') return condition;
  return [
    ...['type', 'flavor', 'provider', 'region', 'server'].map(f => [
      [...crdSpec, f],
      f,
    ]),
    [[...crdRoot, 'x-kubernetes-validations', 0], 'nameRule'],
    ...condition,
  ];
}

const FILES = [SPEC, TEMPLATE, ...CRDS.map(CHART_CRD), ...CRDS.map(COPY_CRD)];

const BOOLISH = /^(y|n|yes|no|true|false|on|off|null|~)$/i;
/** A YAML scalar as this repository writes it: plain when it can be, else single-quoted. */
const scalar = v =>
  typeof v === 'number' ||
  (/^[A-Za-z][-A-Za-z0-9]*$/.test(v) && !BOOLISH.test(v))
    ? String(v)
    : `'${String(v).replace(/'/g, "''")}'`;

/** The rendered value of each key a place states: key -> YAML text. */
function rendered(rule, ruleName) {
  if (ruleName === 'nameRule') {
    return {
      rule: JSON.stringify(
        `self.metadata.name.size() <= ${rule.maxLength} && self.metadata.name.matches('${rule.pattern}')`,
      ),
      message: `metadata.name must be at most ${rule.maxLength} lowercase letters, digits and hyphens, starting and ending with a letter or digit`,
    };
  }
  const out = {};
  if (rule.pattern !== undefined)
    out.pattern = `'${rule.pattern.replace(/'/g, "''")}'`;
  if (rule.maxLength !== undefined) out.maxLength = String(rule.maxLength);
  if (rule.enum !== undefined)
    out.enum = `[${rule.enum.map(scalar).join(', ')}]`;
  return out;
}

/** The file's text with every rule written in; throws naming a place that cannot take it. */
function rewrite(file, text, rules) {
  const docs = YAML.parseAllDocuments(text);
  const doc = docs.find(d => d.contents) ?? docs[0];
  const edits = [];
  for (const [at, ruleName] of places(file)) {
    const rule = rules[ruleName === 'nameRule' ? 'name' : ruleName];
    const node = doc.getIn(at, true);
    if (!YAML.isMap(node)) {
      throw new Error(`${file}: no mapping at ${at.join('.')}`);
    }
    const want = rendered(rule, ruleName);
    for (const key of ['pattern', 'maxLength', 'enum']) {
      if (ruleName !== 'nameRule' && node.has(key) && !(key in want)) {
        throw new Error(
          `${file}: ${at.join(
            '.',
          )} states ${key}, which the rule ${ruleName} does not have`,
        );
      }
    }
    for (const [key, value] of Object.entries(want)) {
      const target = node.get(key, true);
      if (!target?.range) {
        throw new Error(`${file}: ${at.join('.')} has no ${key}`);
      }
      edits.push({ from: target.range[0], to: target.range[1], value });
    }
  }
  edits.sort((a, b) => b.from - a.from);
  let out = text;
  for (const e of edits) out = out.slice(0, e.from) + e.value + out.slice(e.to);
  return out;
}

/** Every file with its current and its generated text. */
function generated(base = root, rules = loadRules()) {
  return FILES.map(file => {
    const text = fs.readFileSync(path.join(base, file), 'utf8');
    return { file, text, want: rewrite(file, text, rules) };
  });
}

/** The files whose rules differ from the rule set. */
function staleFiles(base = root, rules) {
  return generated(base, rules)
    .filter(f => f.text !== f.want)
    .map(f => f.file);
}

function write(base = root, rules) {
  const changed = [];
  for (const f of generated(base, rules)) {
    if (f.text === f.want) continue;
    fs.writeFileSync(path.join(base, f.file), f.want);
    changed.push(f.file);
  }
  return changed;
}

module.exports = { FILES, loadRules, staleFiles, write };

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const stale = staleFiles();
    for (const file of stale)
      console.error(`${file}: differs from CLUSTER_FIELD_RULES`);
    if (stale.length) {
      console.error('run `node scripts/field-rules.js` and commit the result');
      process.exit(1);
    }
    console.log(
      'the field rules in openapi.yaml, the CRDs and the template are up to date',
    );
  } else {
    for (const file of write()) console.log(`wrote ${file}`);
  }
}
