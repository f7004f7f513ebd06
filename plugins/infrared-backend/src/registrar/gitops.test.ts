import { mockServices } from '@backstage/backend-test-utils';
import { RequestCounter } from '@infrared-clusters/infrared-kube';
import type {
  GitopsChange,
  GitopsPublisher,
} from '@infrared-clusters/plugin-infrared-node';
import type {
  RegistrarApi,
  RegistrarSecret,
} from '@infrared-clusters/infrared-registrar';
import { registrationFiles } from '../gitops';
import { registerRegistrarTask } from './task';

const b64 = (s: string) => Buffer.from(s).toString('base64');

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://192.0.2.1:6443', certificate-authority-data: ${b64(
  'CA',
)}}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`;

const SOURCE: RegistrarSecret = {
  metadata: { name: 'k3k-sandbox-kubeconfig', namespace: 'k3k-sandbox' },
  data: { 'kubeconfig.yaml': b64(KUBECONFIG) },
};

/** A registrar API over an in-memory management cluster with one child namespace, k3k-sandbox. */
function world() {
  const target = new Map<string, RegistrarSecret>();
  const state = { childThere: true };
  const namespace = {
    metadata: {
      name: 'k3k-sandbox',
      uid: 'u1',
      labels: {
        'argocd-cluster-registrar/managed-by': 'cluster-registrar',
        'argocd-cluster-registrar/cluster': 'sandbox',
      },
    },
  };
  const api: RegistrarApi = {
    counter: new RequestCounter(),
    listNamespaces: async () => (state.childThere ? [namespace] : []),
    getNamespace: async () => (state.childThere ? namespace : undefined),
    listSecrets: async () => [
      ...(state.childThere ? [SOURCE] : []),
      ...target.values(),
    ],
    createSecret: async s => {
      const made = {
        ...s,
        metadata: {
          ...s.metadata,
          uid: `uid-${s.metadata.name}`,
          resourceVersion: '1',
        },
      };
      target.set(s.metadata.name, made);
      return made;
    },
    replaceSecret: async s => {
      target.set(s.metadata.name, s);
      return s;
    },
    deleteSecret: async (_namespace, name) => {
      target.delete(name);
    },
  };
  const secrets = {
    list: async (ns: string) =>
      [...target.values()].filter(s => s.metadata.namespace === ns),
  };
  return { api, secrets, target, state };
}

function fakePublisher() {
  const changes: GitopsChange[] = [];
  const publisher: GitopsPublisher = {
    publish: async change => {
      changes.push(change);
      return {
        url: 'file:///gitops',
        commit: 'c1',
        state: 'merged',
        merged: true,
      };
    },
    describe: async () => ({
      type: 'local',
      repoUrl: 'git://127.0.0.1/gitops.git',
      defaultBranch: 'main',
    }),
  } as GitopsPublisher;
  return { publisher, changes };
}

async function setUp(registrar: object) {
  const w = world();
  const { publisher, changes } = fakePublisher();
  let fn: ((signal: AbortSignal) => Promise<void>) | undefined;
  const scheduler = mockServices.scheduler.mock({
    scheduleTask: async (task: any) => {
      fn = task.fn;
    },
  });
  await registerRegistrarTask({
    config: mockServices.rootConfig({
      data: { infrared: { registrar: { enabled: true, ...registrar } } },
    }),
    logger: mockServices.logger.mock(),
    scheduler,
    api: w.api,
    gitops: { publisher, managementCluster: 'management', secrets: w.secrets },
  });
  const pass = () => fn!(new AbortController().signal);
  return { ...w, changes, pass };
}

const FILES = registrationFiles({
  clusterName: 'sandbox',
  managementCluster: 'management',
  repoUrl: 'git://127.0.0.1/gitops.git',
  branch: 'main',
});

describe('the registrar publishes its children through gitops', () => {
  it('publishes a registered child registration files, once, and their removal when its Secret goes', async () => {
    const { pass, changes, target, state } = await setUp({});
    await pass();
    expect([...target.keys()]).toEqual(['cluster-sandbox']);
    expect(changes).toEqual([
      expect.objectContaining({ key: 'register-child-sandbox', files: FILES }),
    ]);
    expect(Object.keys(FILES)).toEqual(
      expect.arrayContaining([
        'registry/clusters/management/components/cluster-sandbox.yaml',
        'registry/clusters/sandbox/components/infrared.yaml',
        'registry/clusters/sandbox/infrared/cluster-info.yaml',
      ]),
    );

    // an unchanged child: nothing more to publish
    await pass();
    expect(changes).toHaveLength(1);

    // the child goes: the registrar deletes its Secret, and its files go too
    state.childThere = false;
    await pass();
    expect([...target.keys()]).toEqual([]);
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({
      key: 'register-child-sandbox',
      files: {},
      deletions: Object.keys(FILES),
    });
  });

  it('publishes nothing with infrared.registrar.gitops: false', async () => {
    const { pass, changes, target } = await setUp({ gitops: false });
    await pass();
    expect([...target.keys()]).toEqual(['cluster-sandbox']);
    expect(changes).toEqual([]);
  });
});
