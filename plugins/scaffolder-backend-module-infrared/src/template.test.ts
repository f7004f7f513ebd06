import {
  CLUSTER_FIELD_RULES,
  CLUSTER_FLAVORS,
  CLUSTER_PROVIDERS,
} from '@infrared-clusters/plugin-infrared-common';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { createBuildClusterAction } from './actions/build';
import { createRegisterClusterAction } from './actions/register';
import { createWaitForClusterAction } from './actions/wait';

const TEMPLATE = path.resolve(
  __dirname,
  '../../../examples/templates/new-cluster/template.yaml',
);

/** examples/templates/new-cluster/template.yaml against the actions it runs and -common's rules. */
describe('the new-cluster template', () => {
  const template = YAML.parse(fs.readFileSync(TEMPLATE, 'utf8'));
  const noApi = () => {
    throw new Error('not called');
  };
  const actions = new Map(
    [
      createRegisterClusterAction({ infraredApi: noApi }),
      createBuildClusterAction({ infraredApi: noApi }),
      createWaitForClusterAction({ infraredApi: noApi }),
    ].map(a => [a.id, a]),
  );
  const [clusterPage, howPage] = template.spec.parameters;

  it("states the API's rules for name, region, flavor and provider", () => {
    const { name, region, flavor, provider } = clusterPage.properties;
    expect(name).toMatchObject({
      pattern: CLUSTER_FIELD_RULES.name.pattern,
      maxLength: CLUSTER_FIELD_RULES.name.maxLength,
    });
    expect(region).toMatchObject({
      pattern: CLUSTER_FIELD_RULES.region.pattern,
      maxLength: CLUSTER_FIELD_RULES.region.maxLength,
    });
    expect(flavor.enum).toEqual([...CLUSTER_FLAVORS]);
    expect(provider.enum).toEqual([...CLUSTER_PROVIDERS]);
  });

  it('offers register or build, the kubeconfig only as a secret field', () => {
    expect(howPage.properties.how.enumNames).toEqual([
      'Register an existing cluster',
      'Build one with OpenTofu',
    ]);
    const [register] = howPage.dependencies.how.oneOf;
    expect(register.properties.kubeconfig['ui:field']).toBe('KubeconfigSecret');
    const step = template.spec.steps.find((s: any) => s.id === 'register');
    expect(step.input.kubeconfigSecret).toBe('kubeconfig');
    expect(JSON.stringify(template.spec.steps)).not.toContain(
      'parameters.kubeconfig',
    );
  });

  it('runs only the module actions, each with inputs its schema has', () => {
    for (const step of template.spec.steps) {
      const action = actions.get(step.action);
      expect(action).toBeDefined();
      const properties = Object.keys(
        (action!.schema?.input as any)?.properties ?? {},
      );
      expect(properties).toEqual(
        expect.arrayContaining(Object.keys(step.input)),
      );
    }
  });
});
