/*
 * The name rules on a real API server: names fast-check draws that pass -common's rules are
 * created there as what they become (the Cluster, its two Secrets with the cluster label, an
 * organization's namespace). Dry runs: nothing is stored.
 */
import {
  ensureNamespace,
  getTestControlPlane,
  KubeClient,
} from '@internal/devenv';
import {
  argoSecretName,
  INFRARED_API_VERSION,
  kubeconfigSecretName,
  orgNamespace,
  validateClusterName,
  validateOrganizationName,
} from '@infrared-clusters/plugin-infrared-common';
import fc from 'fast-check';

jest.setTimeout(120_000);

const DRY = '?dryRun=All';

/** Valid names of every shape the rule allows, edges included: 1 and max characters, digits only. */
function sample(valid: (name: string) => boolean, max: number): string[] {
  const drawn = fc.sample(
    fc.stringMatching(new RegExp(`^[a-z0-9][-a-z0-9]{0,${max - 1}}$`)),
    { numRuns: 400, seed: 17 },
  );
  const edges = ['a', '0', '9-9', 'a'.repeat(max), `a${'-'.repeat(max - 2)}z`];
  return [...new Set([...edges, ...drawn])].filter(valid).slice(0, 30);
}

describe('names that pass the rules are names the API server takes', () => {
  const management = getTestControlPlane().cluster('management');
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  // the Secrets' namespaces, whichever test of the run comes first (dry runs need them too)
  beforeAll(async () => {
    for (const ns of ['infrared', 'argocd'])
      await ensureNamespace(management, ns);
  });
  const create = async (collection: string, body: object) => {
    const res = await admin.request('POST', `${collection}${DRY}`, body);
    return `${res.status} ${
      res.status === 201 ? '' : JSON.stringify(res.body)
    }`;
  };

  it('cluster names: the Cluster, its kubeconfig Secret and its Argo CD Secret', async () => {
    const names = sample(n => !validateClusterName(n), 42);
    expect(names.length).toBeGreaterThanOrEqual(20);
    for (const name of names) {
      const labels = { 'infrared.darkshift.io/cluster': name };
      const results = [
        await create('/apis/infrared.darkshift.io/v1alpha1/clusters', {
          apiVersion: INFRARED_API_VERSION,
          kind: 'Cluster',
          metadata: { name, labels },
          spec: { type: 'workload' },
        }),
        await create('/api/v1/namespaces/infrared/secrets', {
          metadata: { name: kubeconfigSecretName(name), labels },
          stringData: { kubeconfig: 'x' },
        }),
        await create('/api/v1/namespaces/argocd/secrets', {
          metadata: { name: argoSecretName(name), labels },
          stringData: { name, server: 'https://127.0.0.1:6443' },
        }),
      ];
      expect([name, results]).toEqual([name, ['201 ', '201 ', '201 ']]);
    }
  });

  it("organization names: the org's namespace", async () => {
    const names = sample(n => !validateOrganizationName(n), 56);
    for (const name of names) {
      const result = await create('/api/v1/namespaces', {
        metadata: {
          name: orgNamespace(name),
          labels: { 'infrared.darkshift.io/org': name },
        },
      });
      expect([name, result]).toEqual([name, '201 ']);
    }
  });
});
