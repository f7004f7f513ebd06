import path from 'node:path';
import { eventually, installCrds } from './helpers';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { getTestControlPlane } from './testing';

jest.setTimeout(120_000);

const CRDS = path.resolve(__dirname, '../../../deploy/crds');
const GROUP = 'infrared.darkshift.io';

/**
 * What `kubectl get <name>` resolves `name` to, read from the API server's discovery as kubectl
 * reads it: every served resource (subresources aside) whose plural, singular or one of its short
 * names is exactly `name`, as `<plural>.<group>`.
 */
async function resolveResource(
  client: KubeClient,
  name: string,
): Promise<string[]> {
  const groups = (await client.must('GET', '/apis')).body.groups as Array<{
    name: string;
    preferredVersion: { groupVersion: string };
  }>;
  const lists = [
    { group: '', path: '/api/v1' },
    ...groups.map(g => ({
      group: g.name,
      path: `/apis/${g.preferredVersion.groupVersion}`,
    })),
  ];
  const found: string[] = [];
  for (const { group, path: at } of lists) {
    const { body } = await client.must('GET', at);
    for (const r of body.resources ?? []) {
      if (r.name.includes('/')) continue;
      if ([r.name, r.singularName, ...(r.shortNames ?? [])].includes(name))
        found.push(group ? `${r.name}.${group}` : r.name);
    }
  }
  return found;
}

describe("the project's CRDs as devenv up installs them", () => {
  const cp = getTestControlPlane();
  const mgmt = cp.client('management');

  beforeAll(async () => {
    await installCrds(cp.cluster('management'), CRDS);
  });

  it('answers `kubectl get irclusters` and `kubectl get ircluster` (the README’s command) through discovery', async () => {
    // Discovery catches up with a CRD update asynchronously.
    const names = await eventually(async () => {
      const { body } = await mgmt.must('GET', `/apis/${GROUP}/v1alpha1`);
      const clusters = body.resources.find((r: any) => r.name === 'clusters');
      return clusters?.shortNames?.includes('irclusters') && clusters;
    }, 30_000);
    expect(names).toMatchObject({
      name: 'clusters',
      singularName: 'cluster',
      kind: 'Cluster',
      namespaced: false,
      shortNames: ['ircluster', 'irclusters'],
    });
    for (const asked of ['irclusters', 'ircluster']) {
      expect([asked, await resolveResource(mgmt, asked)]).toEqual([
        asked,
        [`clusters.${GROUP}`],
      ]);
    }
    // And the resolved resource lists.
    const list = await mgmt.must('GET', `/apis/${GROUP}/v1alpha1/clusters`);
    expect(list.body.kind).toBe('ClusterList');
  });
});
