import type { FieldError } from '../fieldErrors';
import { validateSetProvisionAction } from './action';
import { moduleSource, validateProvisioning } from './rules';
import { offeredTemplate } from './templates';
import {
  encodeVariable,
  templateVariables,
  validateVariables,
} from './variables';
import type { ClusterTemplate } from './types';

const TEMPLATES: ClusterTemplate[] = [
  {
    module: 'aws/k3s-node',
    version: 'v0.2.3',
    title: 'k3s on one EC2 node',
    variables: [
      { name: 'region', type: 'string' },
      { name: 'nodes', type: 'number', default: '1' },
      { name: 'spot', type: 'bool', default: 'false' },
      { name: 'zones', type: 'list', default: '[]' },
      { name: 'tags', type: 'map', default: '{}' },
    ],
  },
  { module: 'local/demo', title: 'Demo', variables: [] },
];

const fields = (errors: FieldError[]) => errors.map(e => e.field);

describe('moduleSource', () => {
  it.each([
    [
      { module: 'aws/k3s-node', version: 'v0.2.3' },
      {},
      'git::https://github.com/darkshiftio/infrared-iac-modules//aws/k3s-node?ref=v0.2.3',
    ],
    [
      { module: 'aws/k3s-node' },
      {},
      'git::https://github.com/darkshiftio/infrared-iac-modules//aws/k3s-node',
    ],
    [
      { module: 'aws/k3s-node', version: 'v0.2.3' },
      { source: '/srv/modules/demo' },
      '/srv/modules/demo',
    ],
    [
      { module: 'aws/k3s-node', version: 'v1' },
      { source: '' },
      'git::https://github.com/darkshiftio/infrared-iac-modules//aws/k3s-node?ref=v1',
    ],
  ])('%j with %j is %s', (template, provision, expected) => {
    expect(moduleSource(template, provision)).toBe(expected);
  });
});

describe('encodeVariable: TF_VAR_ values', () => {
  it.each([
    ['us-east-1', { value: 'us-east-1' }],
    ['3', { value: '3' }],
    ['', { value: '' }],
    [' [1]', { value: ' [1]' }],
    ['["a", "b"]', { value: '["a","b"]' }],
    ['{ "k": "v", "n": [1] }', { value: '{"k":"v","n":[1]}' }],
  ])('%j -> %j', (input, expected) => {
    expect(encodeVariable(input)).toEqual(expected);
  });

  it.each(['[a, b]', '{k = "v"}'])(
    '%j starts like JSON but is not: refused',
    input => {
      expect(encodeVariable(input)).toEqual({
        error: expect.stringContaining('is not valid JSON'),
      });
    },
  );
});

describe('validateVariables', () => {
  it.each([
    [undefined, []],
    [{}, []],
    [{ region: 'us-east-1', zones: '["a"]' }, []],
    [['a'], ['provision.variables']],
    ['region=x', ['provision.variables']],
    [null, ['provision.variables']],
    [{ nodes: 3 }, ['provision.variables.nodes']],
    [{ tags: { a: 'b' } }, ['provision.variables.tags']],
    [{ 'bad name': 'x' }, ['provision.variables.bad name']],
    [{ zones: '[a' }, ['provision.variables.zones']],
  ])('%j -> errors on %j', (variables, expected) => {
    expect(fields(validateVariables(variables))).toEqual(expected);
  });
});

describe('validateProvisioning', () => {
  const template = { module: 'aws/k3s-node', version: 'v0.2.3' };
  const ok = { template, provision: { variables: { region: 'us-east-1' } } };

  it('accepts a known template with its variables', () => {
    expect(validateProvisioning(ok, { templates: TEMPLATES })).toEqual([]);
    expect(
      validateProvisioning(
        {
          template,
          provision: {
            action: 'plan',
            credentialsSecretRef: { name: 'edge-us-east-1-aws' },
            variables: {
              region: 'us-east-1',
              nodes: '3',
              spot: 'true',
              zones: '["a"]',
              tags: '{"a":"b"}',
            },
          },
        },
        { templates: TEMPLATES, type: 'workload' },
      ),
    ).toEqual([]);
  });

  it('nothing to check without template and provision', () => {
    expect(
      validateProvisioning({}, { templates: [], hasConnection: true }),
    ).toEqual([]);
  });

  it.each<
    [
      string,
      { template?: unknown; provision?: unknown },
      object,
      string[],
      RegExp,
    ]
  >([
    [
      'an unknown template',
      { template: { module: 'gcp/gke' } },
      {},
      ['template'],
      /unknown template gcp\/gke: the portal offers aws\/k3s-node@v0.2.3, local\/demo/,
    ],
    [
      'a known module at another version',
      { template: { module: 'aws/k3s-node', version: 'v9' }, provision: {} },
      {},
      ['template'],
      /unknown template aws\/k3s-node@v9/,
    ],
    [
      'no templates configured',
      { template },
      { templates: [] },
      ['template'],
      /offers no template \(infrared.provisioning.templates\)/,
    ],
    [
      'variables not an object',
      { template, provision: { variables: ['region'] } },
      {},
      ['provision.variables'],
      /must be an object of strings/,
    ],
    [
      'a variable that is not a string',
      { template, provision: { variables: { region: 'x', nodes: 3 } } },
      {},
      ['provision.variables.nodes'],
      /must be a string/,
    ],
    [
      'a variable the template does not have',
      { template, provision: { variables: { region: 'x', size: 'big' } } },
      {},
      ['provision.variables.size'],
      /has no variable "size"/,
    ],
    [
      'a missing required variable',
      { template, provision: {} },
      {},
      ['provision.variables.region'],
      /is required by template aws\/k3s-node/,
    ],
    [
      'a number that is not one',
      { template, provision: { variables: { region: 'x', nodes: 'three' } } },
      {},
      ['provision.variables.nodes'],
      /must be a number/,
    ],
    [
      'a bool that is not one',
      { template, provision: { variables: { region: 'x', spot: 'yes' } } },
      {},
      ['provision.variables.spot'],
      /true or false/,
    ],
    [
      'a list that is not JSON',
      { template, provision: { variables: { region: 'x', zones: 'a,b' } } },
      {},
      ['provision.variables.zones'],
      /JSON list/,
    ],
    [
      'provision on type management',
      { ...ok },
      { type: 'management' },
      ['provision'],
      /only for workload clusters/,
    ],
    [
      'a bad action',
      { template, provision: { action: 'deploy', variables: { region: 'x' } } },
      {},
      ['provision.action'],
      /plan, apply, destroy, not "deploy"/,
    ],
    [
      'a credentials Secret name that is not a name',
      {
        template,
        provision: {
          credentialsSecretRef: { name: 'AWS Keys' },
          variables: { region: 'x' },
        },
      },
      {},
      ['provision.credentialsSecretRef.name'],
      /is not a Secret name/,
    ],
    [
      'a credentials Secret with a key',
      {
        template,
        provision: {
          credentialsSecretRef: { name: 'aws', key: 'x' },
          variables: { region: 'x' },
        },
      },
      {},
      ['provision.credentialsSecretRef'],
      /only the name is read/,
    ],
    [
      'template with a connection',
      { ...ok },
      { hasConnection: true },
      ['template'],
      /without kubeconfig or inCluster/,
    ],
    [
      'provision without a template',
      { provision: {} },
      {},
      ['template'],
      /provision needs a template/,
    ],
    [
      'an unknown provision field',
      { template, provision: { variables: { region: 'x' }, vars: {} } },
      {},
      ['provision.vars'],
      /unknown field "provision.vars"/,
    ],
    [
      'a bad module path',
      { template: { module: '../etc' } },
      {},
      ['template.module'],
      /module path/,
    ],
  ])('refuses %s', (_what, input, context, expectedFields, message) => {
    const errors = validateProvisioning(input, {
      templates: TEMPLATES,
      ...context,
    });
    expect(fields(errors)).toEqual(expectedFields);
    expect(errors.map(e => e.message).join('\n')).toMatch(message);
  });
});

describe('validateSetProvisionAction', () => {
  it.each([
    [{ action: 'plan' }, { action: 'plan', acknowledgeBillable: false }],
    [
      { action: 'apply', acknowledgeBillable: true },
      { action: 'apply', acknowledgeBillable: true },
    ],
    [
      { action: 'destroy', acknowledgeBillable: true },
      { action: 'destroy', acknowledgeBillable: true },
    ],
  ])('%j is accepted', (body, value) => {
    expect(validateSetProvisionAction(body)).toEqual({ value });
  });

  it.each<[unknown, string[], RegExp]>([
    [
      { action: 'apply' },
      ['acknowledgeBillable'],
      /cost money until you destroy them: send acknowledgeBillable: true/,
    ],
    [
      { action: 'apply', acknowledgeBillable: false },
      ['acknowledgeBillable'],
      /acknowledgeBillable: true/,
    ],
    [
      { action: 'destroy' },
      ['acknowledgeBillable'],
      /deletes the cloud resources/,
    ],
    [
      { action: 'apply', acknowledgeBillable: 'yes' },
      ['acknowledgeBillable'],
      /true or false/,
    ],
    [{ action: 'deploy' }, ['action'], /plan, apply, destroy/],
    [{ action: 'plan', force: true }, ['force'], /unknown field/],
    ['apply', ['body'], /JSON object/],
  ])('%j is refused', (body, expectedFields, message) => {
    const result = validateSetProvisionAction(body);
    expect('errors' in result && fields(result.errors)).toEqual(expectedFields);
    expect(JSON.stringify(result)).toMatch(message);
  });
});

describe('internal variables', () => {
  const demo: ClusterTemplate = {
    module: 'local/demo-cluster',
    title: 'Demo',
    source: '/repo/examples/tofu/demo-cluster',
    variables: [
      { name: 'name', type: 'string' },
      {
        name: 'data_dir',
        type: 'string',
        default: '/repo/.data/built-clusters',
        internal: true,
      },
    ],
  };
  const template = { module: 'local/demo-cluster' };

  it('refuses a request that sets one, naming the field; its default is used otherwise', () => {
    const errors = validateProvisioning(
      {
        template,
        provision: { variables: { name: 'b', data_dir: '/etc' } },
      },
      { templates: [demo] },
    );
    expect(errors).toEqual([
      {
        field: 'provision.variables.data_dir',
        message:
          'provision.variables.data_dir is internal to template local/demo-cluster: the platform sets it, a request may not',
      },
    ]);
    expect(
      validateProvisioning(
        { template, provision: { variables: { name: 'b' } } },
        { templates: [demo] },
      ),
    ).toEqual([]);
    expect(templateVariables(demo, { name: 'b' })).toEqual({
      name: 'b',
      data_dir: '/repo/.data/built-clusters',
    });
  });

  it('offeredTemplate leaves out the source and the internal variables', () => {
    expect(offeredTemplate(demo)).toEqual({
      module: 'local/demo-cluster',
      title: 'Demo',
      variables: [{ name: 'name', type: 'string' }],
    });
  });
});
