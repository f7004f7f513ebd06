/* The chart's read-only ClusterRole grants exactly what the Kubernetes plugin's fetcher reads. */
import { DEFAULT_OBJECTS } from '@backstage/plugin-kubernetes-backend';
import { parseManifests } from '@internal/devenv';
import fs from 'node:fs';
import path from 'node:path';

const [role]: any[] = parseManifests(
  fs.readFileSync(
    path.resolve(__dirname, '../../../deploy/rbac/60-kubernetes-viewer.yaml'),
    'utf8',
  ),
);

describe('ClusterRole infrared-kubernetes-viewer (deploy/rbac, the chart render)', () => {
  it("grants get, list and watch on the fetcher's default object types and pod metrics, and nothing else", () => {
    expect(role.metadata.name).toBe('infrared-kubernetes-viewer');
    const granted = new Set<string>();
    for (const rule of role.rules) {
      expect(rule.verbs).toEqual(['get', 'list', 'watch']);
      expect(Object.keys(rule).sort()).toEqual([
        'apiGroups',
        'resources',
        'verbs',
      ]);
      for (const group of rule.apiGroups) {
        for (const resource of rule.resources) {
          granted.add(`${group}/${resource}`);
        }
      }
    }
    const read = new Set([
      ...DEFAULT_OBJECTS.map(o => `${o.group}/${o.plural}`),
      // the pod metrics lookup (KubernetesFetcher.fetchPodMetricsForNamespace)
      'metrics.k8s.io/pods',
    ]);
    expect([...granted].sort()).toEqual([...read].sort());
    expect([...granted].some(g => /secrets|\*/.test(g))).toBe(false);
  });
});
