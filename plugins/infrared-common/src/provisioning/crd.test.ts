/* The Cluster CRD in deploy/crds states the provisioning rules of -common. */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROVISION_FIELD_RULES } from './rules';
import { PROVISION_PHASES } from './types';

const root = parse(
  fs.readFileSync(
    path.resolve(__dirname, '../../../../deploy/crds/clusters.yaml'),
    'utf8',
  ),
).spec.versions[0].schema.openAPIV3Schema;
const spec = root.properties.spec;
const provision = spec.properties.provision.properties;
const status = root.properties.status.properties.provision.properties;

describe('the Cluster CRD and the provisioning rules', () => {
  it('spec.provision.action takes plan, apply and destroy, default plan', () => {
    expect(provision.action.enum).toEqual([
      ...PROVISION_FIELD_RULES.action.enum,
    ]);
    expect(provision.action.default).toBe('plan');
  });

  it('the credentials Secret name has the Secret name rule', () => {
    const name = provision.credentialsSecretRef.properties.name;
    expect({ pattern: name.pattern, maxLength: name.maxLength }).toEqual(
      PROVISION_FIELD_RULES.credentialsSecretName,
    );
  });

  it('variables are an object of strings', () => {
    expect(provision.variables).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
  });

  it('refuses provision on a management cluster and provision without a template (CEL)', () => {
    const rules = spec['x-kubernetes-validations'].map((v: any) => v.rule);
    expect(rules).toEqual([
      "!(self.type == 'management' && has(self.provision))",
      '!has(self.provision) || has(self.template)',
    ]);
  });

  it('status.provision: phases, logs, summary and the spec hash', () => {
    expect(status.phase.enum).toEqual([...PROVISION_PHASES]);
    expect(Object.keys(status).sort()).toEqual(
      [
        'action',
        'generation',
        'job',
        'logs',
        'message',
        'phase',
        'specHash',
        'summary',
      ].sort(),
    );
    expect(Object.keys(status.summary.properties)).toEqual([
      'add',
      'change',
      'destroy',
      'resources',
    ]);
  });
});
