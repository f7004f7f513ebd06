/*
 * The Cluster CRD's rules as a real API server applies them (RE2 patterns, CEL), against the
 * same samples the API's validator and openapi.yaml are held to in rules.test.ts. Dry runs:
 * nothing is stored.
 */
import { getTestControlPlane, installCrds, KubeClient } from '@internal/devenv';
import {
  CLUSTER_KIND,
  INFRARED_API_VERSION,
  INFRARED_GROUP,
  INFRARED_VERSION,
} from '@infrared-clusters/plugin-infrared-common';
import path from 'node:path';
import { RULE_SAMPLES, type RuleSample } from './__testUtils__/ruleSamples';

jest.setTimeout(120_000);

const COLLECTION = `/apis/${INFRARED_GROUP}/${INFRARED_VERSION}/clusters?dryRun=All`;

function clusterWith({ field, value }: Pick<RuleSample, 'field' | 'value'>) {
  return {
    apiVersion: INFRARED_API_VERSION,
    kind: CLUSTER_KIND,
    metadata: { name: field === 'name' ? value : 'rule-sample' },
    spec: { type: 'workload', ...(field === 'name' ? {} : { [field]: value }) },
  };
}

describe('the Cluster CRD on a real API server', () => {
  const management = getTestControlPlane().cluster('management');
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  const verdict = async (sample: Pick<RuleSample, 'field' | 'value'>) => {
    const res = await admin.request('POST', COLLECTION, clusterWith(sample));
    if (res.status === 201) return 'accept';
    if (res.status === 422) return 'refuse';
    throw new Error(
      `dry-run create: ${res.status} ${JSON.stringify(res.body)}`,
    );
  };

  beforeAll(async () => {
    await installCrds(
      management,
      path.resolve(__dirname, '../../../../deploy/crds'),
    );
    // A CRD update takes a moment to reach the API server's validation.
    const deadline = Date.now() + 30_000;
    const updated = { field: 'server', value: 'http://edge.example' } as const;
    while ((await verdict(updated)) !== 'refuse') {
      if (Date.now() > deadline)
        throw new Error('the CRD update never applied');
      await new Promise(r => setTimeout(r, 250));
    }
  });

  it('gives each sample the verdict of the rule', async () => {
    const got: string[] = [];
    const want: string[] = [];
    for (const sample of RULE_SAMPLES) {
      const shown = `${sample.field} ${JSON.stringify(sample.value)}`;
      got.push(`${shown}: ${await verdict(sample)}`);
      want.push(`${shown}: ${sample.rule}`);
    }
    expect(got).toEqual(want);
  });
});
