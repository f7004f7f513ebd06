import { parse } from 'yaml';
import { validateArgoApplications } from '../__testUtils__/argoApplicationSchema';
import {
  buildClusterInfoApplication,
  buildClusterInfoConfigMap,
  buildClusterRegistryReadme,
  buildRegistryApplication,
  registrationFiles,
} from './registration';

const options = {
  clusterName: 'edge-1',
  managementCluster: 'infrared-mgmt',
  repoUrl: 'https://github.com/acme/gitops.git',
  branch: 'main',
};

describe('registration files', () => {
  it('builds the app-of-apps Application registry-<name>', () => {
    const app = parse(buildRegistryApplication(options));
    expect(app).toMatchObject({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        name: 'registry-edge-1',
        namespace: 'argocd',
        annotations: { 'argocd.argoproj.io/sync-wave': '50' },
      },
      spec: {
        project: 'default',
        source: {
          repoURL: 'https://github.com/acme/gitops.git',
          targetRevision: 'main',
          path: 'registry/clusters/edge-1/components',
        },
        destination: {
          server: 'https://kubernetes.default.svc',
          namespace: 'argocd',
        },
        syncPolicy: { automated: { prune: true, selfHeal: true } },
      },
    });
    // A YAML number 50 would be rejected by Kubernetes: annotations are strings.
    expect(buildRegistryApplication(options)).toMatch(/sync-wave: "50"/);
  });

  it('validates against the Argo CD Application schema', async () => {
    const apps = ['edge-1', 'a', 'x'.repeat(42)].map(clusterName =>
      parse(buildRegistryApplication({ ...options, clusterName })),
    );
    const broken = {
      ...apps[0],
      spec: { ...apps[0].spec, project: undefined },
    };
    const results = await validateArgoApplications([...apps, broken]);
    expect(results.slice(0, 3)).toEqual([null, null, null]);
    // The validator really checks: a missing project is refused.
    expect(results[3]).toMatch(/project/);
  });

  it('writes the Application infrared-<name> that targets the cluster itself, with a ConfigMap and no finalizer', async () => {
    const app = parse(buildClusterInfoApplication(options));
    expect(app).toEqual({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        name: 'infrared-edge-1',
        namespace: 'argocd',
        labels: {
          'app.kubernetes.io/managed-by': 'infrared',
          'infrared.darkshift.io/cluster': 'edge-1',
        },
      },
      spec: {
        project: 'default',
        source: {
          repoURL: 'https://github.com/acme/gitops.git',
          targetRevision: 'main',
          path: 'registry/clusters/edge-1/infrared',
        },
        // by the name of the cluster's Argo CD Secret: the files need not know its server URL
        destination: { name: 'edge-1', namespace: 'infrared-system' },
        syncPolicy: {
          automated: { prune: true, selfHeal: true },
          syncOptions: ['CreateNamespace=true'],
        },
      },
    });
    expect(await validateArgoApplications([app])).toEqual([null]);
    expect(parse(buildClusterInfoConfigMap(options))).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'infrared-cluster',
        namespace: 'infrared-system',
        labels: {
          'app.kubernetes.io/managed-by': 'infrared',
          'infrared.darkshift.io/cluster': 'edge-1',
        },
      },
      data: { cluster: 'edge-1', managementCluster: 'infrared-mgmt' },
    });
  });

  it('places the Application under the management cluster, the README and the component under the cluster', () => {
    const files = registrationFiles(options);
    expect(Object.keys(files).sort()).toEqual([
      'registry/clusters/edge-1/components/README.md',
      'registry/clusters/edge-1/components/infrared.yaml',
      'registry/clusters/edge-1/infrared/cluster-info.yaml',
      'registry/clusters/infrared-mgmt/components/cluster-edge-1.yaml',
    ]);
    expect(files['registry/clusters/edge-1/components/infrared.yaml']).toBe(
      buildClusterInfoApplication(options),
    );
    expect(files['registry/clusters/edge-1/infrared/cluster-info.yaml']).toBe(
      buildClusterInfoConfigMap(options),
    );
    expect(
      files['registry/clusters/infrared-mgmt/components/cluster-edge-1.yaml'],
    ).toBe(buildRegistryApplication(options));
    expect(files['registry/clusters/edge-1/components/README.md']).toBe(
      buildClusterRegistryReadme('edge-1'),
    );
  });

  it('is deterministic, so a second registration finds the same bytes', () => {
    expect(registrationFiles(options)).toEqual(
      registrationFiles({ ...options }),
    );
    expect(buildClusterRegistryReadme('edge-1')).toContain('registry-edge-1');
  });
});
