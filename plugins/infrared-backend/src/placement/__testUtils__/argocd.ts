import { installCrds, KubeClient, type ClusterInfo } from '@internal/devenv';
import path from 'node:path';
import { parse } from 'yaml';

const ARGOCD_CRDS = path.resolve(
  __dirname,
  '../../../../../deploy/test-fixtures/argocd-crds.yaml',
);
const APPS = '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications';
const PROJECTS = '/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects';

/** Argo CD's Application and AppProject kinds on the management cluster (no Argo CD runs here). */
export async function installArgoCrds(management: ClusterInfo): Promise<void> {
  await installCrds(management, ARGOCD_CRDS);
}

/** Creates or replaces an AppProject in namespace argocd. */
export async function putAppProject(
  admin: KubeClient,
  name: string,
  destinations: Array<Record<string, string>>,
): Promise<void> {
  const body = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name, namespace: 'argocd' },
    // Namespace: the zone Application's CreateNamespace=true needs it, as Argo CD does
    spec: {
      sourceRepos: ['*'],
      destinations,
      clusterResourceWhitelist: [{ group: '', kind: 'Namespace' }],
    },
  };
  const created = await admin.must('POST', PROJECTS, body, [409]);
  if (created.status === 409) {
    const current = await admin.must('GET', `${PROJECTS}/${name}`);
    await admin.must('PUT', `${PROJECTS}/${name}`, {
      ...body,
      metadata: {
        ...body.metadata,
        resourceVersion: current.body.metadata.resourceVersion,
      },
    });
  }
}

/**
 * What Argo CD does with a zone Application file: the app-of-apps `registry-<cluster>` applies it in
 * namespace argocd, then the application controller syncs it and writes its status. Argo CD's
 * Application has no status subresource; the controller patches the object's `status`.
 */
export async function syncApplicationAsArgoCd(
  admin: KubeClient,
  fileText: string,
  revision: string,
  health: 'Healthy' | 'Progressing' | 'Degraded' = 'Healthy',
): Promise<void> {
  const app = parse(fileText);
  const url = `${APPS}/${app.metadata.name}`;
  const created = await admin.must('POST', APPS, app, [409]);
  if (created.status === 409) {
    const current = await admin.must('GET', url);
    await admin.must('PUT', url, {
      ...app,
      metadata: {
        ...app.metadata,
        resourceVersion: current.body.metadata.resourceVersion,
      },
      status: current.body.status,
    });
  }
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await admin.must(
    'PATCH',
    url,
    {
      status: {
        sync: {
          status: 'Synced',
          revision,
          comparedTo: {
            source: app.spec.source,
            destination: app.spec.destination,
          },
        },
        health: { status: health, lastTransitionTime: now },
        reconciledAt: now,
        sourceType: 'Directory',
        operationState: {
          phase: 'Succeeded',
          message: 'successfully synced (all tasks run)',
          startedAt: now,
          finishedAt: now,
          operation: { sync: { revision }, initiatedBy: { automated: true } },
          syncResult: { revision, source: app.spec.source },
        },
      },
    },
    [],
    'application/merge-patch+json',
  );
}

/** Removes Applications by name from namespace argocd (test cleanup). */
export async function deleteApplications(
  admin: KubeClient,
  names: string[],
): Promise<void> {
  for (const name of names) {
    await admin.request('DELETE', `${APPS}/${name}`);
  }
}
