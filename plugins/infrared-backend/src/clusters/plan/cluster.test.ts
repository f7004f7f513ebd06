import {
  ARGOCD_NAMESPACE,
  CLUSTER_NAME_LABEL,
  IN_CLUSTER_SERVER,
  INFRARED_NAMESPACE,
  MANAGED_BY_LABEL,
  secretStrings,
  type ClusterCondition,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { ProbeResult } from '@infrared-clusters/infrared-kube';
import type { GitopsPublishResult } from '../../gitops';
import {
  CA,
  CERT,
  clusterResource,
  KEY,
  kubeconfigText,
  SERVER,
  stored,
  storedKubeconfigSecret,
  TOKEN,
} from '../__testUtils__/fixtures';
import { resolveConnection } from './connection';
import {
  desiredArgoSecret,
  filesHash,
  mergeOwnedStatus,
  planCluster,
  REGISTERED_FILES_ANNOTATION,
  settleRegistered,
  statusChanged,
  type ObservedCluster,
} from '.';
import { registrationChange } from '../observe';

const NOW = '2026-02-01T10:00:00.000Z';
const EARLIER = '2026-01-15T08:00:00.000Z';
const OK: ProbeResult = { ok: true, kubernetesVersion: 'v1.37.2', nodes: 2 };
const REPO = { repoUrl: 'file:///tmp/gitops.git', defaultBranch: 'main' };

function observe(
  cluster: ClusterResource,
  extra: Partial<ObservedCluster> & { noKubeconfigSecret?: boolean } = {},
): ObservedCluster {
  const { noKubeconfigSecret, ...rest } = extra;
  let kubeconfigSecret: SecretObject | undefined;
  if ('kubeconfigSecret' in extra) kubeconfigSecret = extra.kubeconfigSecret;
  else if (!noKubeconfigSecret && !cluster.spec.connection?.inCluster) {
    kubeconfigSecret = storedKubeconfigSecret(
      cluster.metadata.name,
      undefined,
      {
        ownerReferences: [ownerRef(cluster)],
      },
    );
  }
  const connection = resolveConnection(cluster, kubeconfigSecret);
  return {
    cluster,
    connection,
    kubeconfigSecret,
    probe: connection.kind === 'unusable' ? undefined : OK,
    registration: registrationChange(
      cluster.metadata.name,
      'infrared-mgmt',
      REPO,
    ),
    now: NOW,
    ...rest,
  };
}

function ownerRef(cluster: ClusterResource) {
  return {
    apiVersion: cluster.apiVersion,
    kind: 'Cluster',
    name: cluster.metadata.name,
    uid: cluster.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

const condition = (conds: ClusterCondition[] | undefined, type: string) =>
  conds?.find(c => c.type === type);

/** The Argo CD Secret as Infrared writes it, read back from the API server. */
function rightArgoSecret(cluster: ClusterResource, text = kubeconfigText()) {
  const observed = observe(cluster, {
    kubeconfigSecret: storedKubeconfigSecret(cluster.metadata.name, text),
  });
  if (observed.connection.kind !== 'kubeconfig') throw new Error('bad fixture');
  return stored(desiredArgoSecret(cluster, observed.connection.argo), {
    namespace: ARGOCD_NAMESPACE,
  });
}

function registered(
  cluster: ClusterResource,
  generation = cluster.metadata.generation,
): ClusterResource {
  const hash = filesHash(
    registrationChange(cluster.metadata.name, 'infrared-mgmt', REPO).files,
  );
  return {
    ...cluster,
    metadata: {
      ...cluster.metadata,
      annotations: { [REGISTERED_FILES_ANNOTATION]: hash },
    },
    status: {
      conditions: [
        {
          type: 'Connected',
          status: 'True',
          reason: 'Connected',
          message: `reached Kubernetes v1.37.2 at ${SERVER} as Argo CD will connect: 2 nodes`,
          lastTransitionTime: EARLIER,
          observedGeneration: generation,
        },
        {
          type: 'Registered',
          status: 'True',
          reason: 'Registered',
          message: 'the gitops repo registers the cluster: file:///x#abc',
          lastTransitionTime: EARLIER,
          observedGeneration: generation,
        },
      ],
      kubernetesVersion: 'v1.37.2',
      nodes: 2,
      argoSecret: `cluster-${cluster.metadata.name}`,
      argoServer: SERVER,
      gitopsPath: `registry/clusters/infrared-mgmt/components/cluster-${cluster.metadata.name}.yaml`,
      pullRequest: {
        url: 'file:///x#abc',
        number: 1,
        commit: 'abc',
        merged: true,
      },
      observedGeneration: generation,
    },
  };
}

describe('planCluster', () => {
  describe('Connected', () => {
    it('is True with version and node count when the probe answers', () => {
      const plan = planCluster(observe(clusterResource('edge')));
      const connected = condition(plan.status.conditions, 'Connected');
      expect(connected).toEqual({
        type: 'Connected',
        status: 'True',
        reason: 'Connected',
        message: `reached Kubernetes v1.37.2 at ${SERVER} as Argo CD will connect: 2 nodes`,
        lastTransitionTime: NOW,
        observedGeneration: 1,
      });
      expect(plan.status.kubernetesVersion).toBe('v1.37.2');
      expect(plan.status.nodes).toBe(2);
    });

    it.each([
      ['Unauthorized', 'the API server refused the credential'],
      ['Forbidden', 'may not list nodes'],
      ['CertificateNotTrusted', 'certificate not trusted'],
      ['Unreachable', 'cannot reach (ECONNREFUSED)'],
      ['Timeout', 'no answer within 10 s'],
      ['ProbeFailed', 'HTTP 500'],
    ] as const)(
      'is False with reason %s when the probe fails, keeping the last version seen',
      (reason, message) => {
        const cluster = clusterResource('edge', {
          status: { kubernetesVersion: 'v1.36.0', nodes: 3 },
        });
        const plan = planCluster(
          observe(cluster, { probe: { ok: false, reason, message } }),
        );
        expect(condition(plan.status.conditions, 'Connected')).toMatchObject({
          status: 'False',
          reason,
          message,
        });
        expect(plan.status.kubernetesVersion).toBe('v1.36.0');
        expect(plan.status.nodes).toBe(3);
        expect(condition(plan.status.conditions, 'Registered')).toMatchObject({
          status: 'False',
          reason: 'WaitingForConnection',
          message: `registration waits for Connected: ${message}`,
        });
        expect(plan.publish).toBeUndefined();
        expect(
          plan.actions.filter(a => a.type !== 'adoptKubeconfigSecret'),
        ).toEqual([]);
      },
    );

    it('is False NoConnection for a Cluster without a connection (e.g. still to be built)', () => {
      const cluster = clusterResource('edge', { spec: { connection: {} } });
      const plan = planCluster(observe(cluster));
      expect(condition(plan.status.conditions, 'Connected')).toMatchObject({
        status: 'False',
        reason: 'NoConnection',
      });
    });

    it('is False KubeconfigSecretMissing when the Secret does not exist', () => {
      const cluster = clusterResource('edge');
      const plan = planCluster(
        observe(cluster, { kubeconfigSecret: undefined }),
      );
      expect(condition(plan.status.conditions, 'Connected')).toMatchObject({
        status: 'False',
        reason: 'KubeconfigSecretMissing',
        message: expect.stringContaining(
          `Secret ${INFRARED_NAMESPACE}/cluster-edge-kubeconfig`,
        ),
      });
      expect(plan.actions).toEqual([]);
    });

    it('is False KubeconfigKeyMissing when the Secret lacks the key', () => {
      const cluster = clusterResource('edge', {
        spec: {
          connection: {
            kubeconfigSecretRef: {
              name: 'cluster-edge-kubeconfig',
              key: 'value',
            },
          },
        },
      });
      const plan = planCluster(observe(cluster));
      expect(condition(plan.status.conditions, 'Connected')).toMatchObject({
        status: 'False',
        reason: 'KubeconfigKeyMissing',
      });
    });

    it('is False KubeconfigInvalid for a hand-made kubeconfig with an exec plugin, never running it', () => {
      const cluster = clusterResource('edge');
      const text = kubeconfigText({
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          command: 'aws',
          args: ['eks', 'get-token'],
        },
      });
      const plan = planCluster(
        observe(cluster, {
          kubeconfigSecret: storedKubeconfigSecret('edge', text),
        }),
      );
      const connected = condition(plan.status.conditions, 'Connected');
      expect(connected).toMatchObject({
        status: 'False',
        reason: 'KubeconfigInvalid',
      });
      expect(connected!.message).toContain(
        'because Argo CD needs a credential it can store',
      );
      // The Secret still gets its owner.
      expect(plan.actions.map(a => a.type)).toEqual(['adoptKubeconfigSecret']);
    });

    it('never puts the credential into a message', () => {
      const cluster = clusterResource('edge');
      const plans = [
        planCluster(observe(cluster)),
        planCluster(
          observe(cluster, {
            probe: { ok: false, reason: 'Unauthorized', message: 'refused' },
          }),
        ),
      ];
      for (const plan of plans) {
        expect(JSON.stringify(plan.status)).not.toContain(TOKEN);
      }
    });
  });

  describe('kubeconfig Secret owner reference', () => {
    it('adds the Cluster as owner of a Secret without one', () => {
      const cluster = clusterResource('edge');
      const plan = planCluster(
        observe(cluster, { kubeconfigSecret: storedKubeconfigSecret('edge') }),
      );
      expect(plan.actions[0]).toEqual({
        type: 'adoptKubeconfigSecret',
        namespace: INFRARED_NAMESPACE,
        name: 'cluster-edge-kubeconfig',
        labels: {
          [MANAGED_BY_LABEL]: 'infrared',
          [CLUSTER_NAME_LABEL]: 'edge',
        },
        ownerReferences: [ownerRef(cluster)],
        resourceVersion: '200',
      });
    });

    it('adopts a Secret made by hand (no labels) for a Cluster made with kubectl', () => {
      const cluster = clusterResource('edge', {
        spec: {
          connection: {
            kubeconfigSecretRef: { name: 'edge-kubeconfig', key: 'kubeconfig' },
          },
        },
      });
      const handMade: SecretObject = {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: {
          name: 'edge-kubeconfig',
          namespace: INFRARED_NAMESPACE,
          uid: 'u-1',
          resourceVersion: '7',
          labels: { team: 'edge' },
        },
        data: { kubeconfig: Buffer.from(kubeconfigText()).toString('base64') },
      };
      const plan = planCluster(
        observe(cluster, { kubeconfigSecret: handMade }),
      );
      expect(plan.actions[0]).toMatchObject({
        type: 'adoptKubeconfigSecret',
        name: 'edge-kubeconfig',
        ownerReferences: [ownerRef(cluster)],
        resourceVersion: '7',
      });
      expect(condition(plan.status.conditions, 'Connected')?.status).toBe(
        'True',
      );
    });

    it('does nothing when the Secret is already owned and labelled', () => {
      const cluster = clusterResource('edge');
      const plan = planCluster(
        observe(cluster, {
          argoSecret: rightArgoSecret(cluster),
        }),
      );
      expect(plan.actions).toEqual([]);
    });

    it('replaces a reference to an earlier Cluster of the same name', () => {
      const cluster = clusterResource('edge');
      const stale = { ...ownerRef(cluster), uid: 'old-uid' };
      const plan = planCluster(
        observe(cluster, {
          kubeconfigSecret: storedKubeconfigSecret('edge', undefined, {
            ownerReferences: [stale],
          }),
        }),
      );
      expect(plan.actions[0]).toMatchObject({
        type: 'adoptKubeconfigSecret',
        ownerReferences: [ownerRef(cluster)],
      });
    });

    it('adds itself as a plain owner when another object is the controller', () => {
      const cluster = clusterResource('edge');
      const other = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name: 'x',
        uid: 'other',
        controller: true,
        blockOwnerDeletion: true,
      };
      const plan = planCluster(
        observe(cluster, {
          kubeconfigSecret: storedKubeconfigSecret('edge', undefined, {
            ownerReferences: [other],
          }),
        }),
      );
      expect(plan.actions[0]).toMatchObject({
        ownerReferences: [other, { ...ownerRef(cluster), controller: false }],
      });
    });
  });

  describe('Argo CD Secret', () => {
    it('is created for a connected kubeconfig cluster with name, server, config, labels and owner', () => {
      const cluster = clusterResource('edge');
      const plan = planCluster(observe(cluster));
      expect(plan.actions).toHaveLength(1);
      const action = plan.actions[0];
      expect(action.type).toBe('createArgoSecret');
      const secret = (action as { secret: SecretObject }).secret;
      expect(secret.metadata).toEqual({
        name: 'cluster-edge',
        namespace: ARGOCD_NAMESPACE,
        labels: {
          [MANAGED_BY_LABEL]: 'infrared',
          [CLUSTER_NAME_LABEL]: 'edge',
          'argocd.argoproj.io/secret-type': 'cluster',
        },
        ownerReferences: [ownerRef(cluster)],
      });
      expect(secret.stringData).toEqual({
        name: 'edge',
        server: SERVER,
        config: JSON.stringify({
          bearerToken: TOKEN,
          tlsClientConfig: { insecure: false, caData: CA },
        }),
      });
      expect(plan.status.argoSecret).toBe('cluster-edge');
      expect(plan.status.argoServer).toBe(SERVER);
    });

    it('takes a client certificate into tlsClientConfig', () => {
      const cluster = clusterResource('edge');
      const text = kubeconfigText({
        'client-certificate-data': CERT,
        'client-key-data': KEY,
      });
      const plan = planCluster(
        observe(cluster, {
          kubeconfigSecret: storedKubeconfigSecret('edge', text, {
            ownerReferences: [ownerRef(cluster)],
          }),
        }),
      );
      const secret = (plan.actions[0] as { secret: SecretObject }).secret;
      expect(JSON.parse(secret.stringData!.config)).toEqual({
        tlsClientConfig: {
          insecure: false,
          caData: CA,
          certData: CERT,
          keyData: KEY,
        },
      });
    });

    it('uses spec.server, trailing slash trimmed, when set', () => {
      const cluster = clusterResource('edge', {
        spec: { server: 'https://edge.example.net:6443/' },
      });
      const plan = planCluster(observe(cluster));
      const secret = (plan.actions[0] as { secret: SecretObject }).secret;
      expect(secret.stringData!.server).toBe('https://edge.example.net:6443');
      expect(plan.status.argoServer).toBe('https://edge.example.net:6443');
    });

    it('is not written when it is already right', () => {
      const cluster = clusterResource('edge');
      const plan = planCluster(
        observe(cluster, { argoSecret: rightArgoSecret(cluster) }),
      );
      expect(plan.actions).toEqual([]);
    });

    it('is restored when someone edited its data, keeping what others added', () => {
      const cluster = clusterResource('edge');
      const right = rightArgoSecret(cluster);
      const edited = {
        ...right,
        metadata: {
          ...right.metadata,
          annotations: { note: 'kept' },
          labels: { ...right.metadata.labels, extra: 'kept' },
        },
        data: {
          ...right.data,
          server: Buffer.from('https://evil.example:6443').toString('base64'),
          project: Buffer.from('edge').toString('base64'),
        },
      };
      const plan = planCluster(observe(cluster, { argoSecret: edited }));
      expect(plan.actions).toHaveLength(1);
      const action = plan.actions[0] as { type: string; secret: SecretObject };
      expect(action.type).toBe('replaceArgoSecret');
      expect(action.secret.metadata.resourceVersion).toBe(
        right.metadata.resourceVersion,
      );
      expect(action.secret.metadata.annotations).toEqual({ note: 'kept' });
      expect(action.secret.metadata.labels?.extra).toBe('kept');
      expect(secretStrings(action.secret)).toMatchObject({
        server: SERVER,
        project: 'edge',
      });
    });

    it('is restored when someone removed its labels', () => {
      const cluster = clusterResource('edge');
      const right = rightArgoSecret(cluster);
      const plan = planCluster(
        observe(cluster, {
          argoSecret: { ...right, metadata: { ...right.metadata, labels: {} } },
        }),
      );
      expect(plan.actions.map(a => a.type)).toEqual(['replaceArgoSecret']);
    });

    it('is rewritten when the kubeconfig Secret holds a rotated credential', () => {
      const cluster = clusterResource('edge');
      const rotated = kubeconfigText({ token: 'rotated-token' });
      const plan = planCluster(
        observe(cluster, {
          kubeconfigSecret: storedKubeconfigSecret('edge', rotated, {
            ownerReferences: [ownerRef(cluster)],
          }),
          argoSecret: rightArgoSecret(cluster),
        }),
      );
      const action = plan.actions[0] as { type: string; secret: SecretObject };
      expect(action.type).toBe('replaceArgoSecret');
      expect(JSON.parse(action.secret.stringData!.config).bearerToken).toBe(
        'rotated-token',
      );
    });

    it('is created again when someone deleted it', () => {
      const cluster = registered(clusterResource('edge'));
      const plan = planCluster(observe(cluster));
      expect(plan.actions.map(a => a.type)).toEqual(['createArgoSecret']);
      expect(plan.publish).toBeUndefined();
    });

    it('is not written while the cluster is not Connected', () => {
      const cluster = clusterResource('edge');
      const plan = planCluster(
        observe(cluster, {
          probe: { ok: false, reason: 'Unauthorized', message: 'no' },
        }),
      );
      expect(plan.actions).toEqual([]);
      expect(plan.status.argoSecret).toBeUndefined();
    });

    it('is left as it is (not deleted) when the cluster stops answering', () => {
      const cluster = registered(clusterResource('edge'));
      const plan = planCluster(
        observe(cluster, {
          argoSecret: rightArgoSecret(cluster),
          probe: { ok: false, reason: 'Unreachable', message: 'no' },
        }),
      );
      expect(plan.actions).toEqual([]);
      expect(plan.status.argoSecret).toBe('cluster-edge');
    });

    it('is none for an inCluster cluster, which Argo CD reaches as https://kubernetes.default.svc', () => {
      const cluster = clusterResource('local', {
        spec: { connection: { inCluster: true } },
      });
      const plan = planCluster(observe(cluster));
      expect(plan.actions).toEqual([]);
      expect(plan.status.argoServer).toBe(IN_CLUSTER_SERVER);
      expect(plan.status.argoSecret).toBeUndefined();
      expect(condition(plan.status.conditions, 'Connected')?.message).toContain(
        "the backend's own service account",
      );
    });

    it('is deleted when an inCluster cluster still has one of ours', () => {
      const cluster = clusterResource('local', {
        spec: { connection: { inCluster: true } },
      });
      const ours = stored(
        {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: {
            name: 'cluster-local',
            namespace: ARGOCD_NAMESPACE,
            ownerReferences: [ownerRef(cluster)],
          },
        },
        { uid: 'argo-uid' },
      );
      const plan = planCluster(observe(cluster, { argoSecret: ours }));
      expect(plan.actions).toEqual([
        {
          type: 'deleteArgoSecret',
          namespace: ARGOCD_NAMESPACE,
          name: 'cluster-local',
          uid: 'argo-uid',
          // refused: nothing published, and Registered says why (settleRegistered)
          stopsRegistration: true,
        },
      ]);
    });

    it("leaves alone a Secret of that name that isn't Infrared's, for an inCluster cluster", () => {
      const cluster = clusterResource('local', {
        spec: { connection: { inCluster: true } },
      });
      const foreign = stored({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: { name: 'cluster-local', namespace: ARGOCD_NAMESPACE },
      });
      const plan = planCluster(observe(cluster, { argoSecret: foreign }));
      expect(plan.actions).toEqual([]);
    });
  });

  describe('Registered', () => {
    it('publishes the registration once Connected, with key cluster-<name> and its four files', () => {
      const plan = planCluster(observe(clusterResource('edge')));
      expect(plan.publish?.change.key).toBe('cluster-edge');
      expect(Object.keys(plan.publish!.change.files).sort()).toEqual([
        'registry/clusters/edge/components/README.md',
        'registry/clusters/edge/components/infrared.yaml',
        'registry/clusters/edge/infrared/cluster-info.yaml',
        'registry/clusters/infrared-mgmt/components/cluster-edge.yaml',
      ]);
      expect(plan.publish?.filesHash).toBe(
        filesHash(plan.publish!.change.files),
      );
    });

    it('waits for Connected', () => {
      const plan = planCluster(
        observe(clusterResource('edge'), {
          probe: { ok: false, reason: 'Timeout', message: 'no answer' },
        }),
      );
      expect(plan.publish).toBeUndefined();
      expect(condition(plan.status.conditions, 'Registered')).toMatchObject({
        status: 'False',
        reason: 'WaitingForConnection',
      });
    });

    it('does not publish again when already Registered for this generation and these files', () => {
      const cluster = registered(clusterResource('edge'));
      const plan = planCluster(
        observe(cluster, { argoSecret: rightArgoSecret(cluster) }),
      );
      expect(plan.publish).toBeUndefined();
      expect(plan.actions).toEqual([]);
      expect(statusChanged(cluster.status, plan.status)).toBe(false);
    });

    it('publishes again (idempotently) for a new generation', () => {
      const cluster = registered(
        clusterResource('edge', { metadata: { generation: 2 } }),
        1,
      );
      const plan = planCluster(observe(cluster));
      expect(plan.publish).toBeDefined();
    });

    it('publishes again when the files changed (e.g. another gitops repo)', () => {
      const cluster = registered(clusterResource('edge'));
      const plan = planCluster(
        observe(cluster, {
          registration: registrationChange('edge', 'infrared-mgmt', {
            repoUrl: 'https://git.example/other.git',
            defaultBranch: 'main',
          }),
        }),
      );
      expect(plan.publish).toBeDefined();
    });

    it('stays True when the cluster stops answering after it was registered', () => {
      const cluster = registered(
        clusterResource('edge', { metadata: { generation: 2 } }),
        1,
      );
      const plan = planCluster(
        observe(cluster, {
          probe: { ok: false, reason: 'Unauthorized', message: 'revoked' },
        }),
      );
      expect(plan.publish).toBeUndefined();
      expect(condition(plan.status.conditions, 'Registered')?.status).toBe(
        'True',
      );
    });

    it('is False PublishFailed when the gitops repo cannot be described', () => {
      const plan = planCluster(
        observe(clusterResource('edge'), {
          registration: {
            error: 'the gitops repository cannot be described: 503',
          },
        }),
      );
      expect(plan.publish).toBeUndefined();
      expect(condition(plan.status.conditions, 'Registered')).toMatchObject({
        status: 'False',
        reason: 'PublishFailed',
        message: 'the gitops repository cannot be described: 503',
      });
    });

    it('publishes nothing for the management cluster: Registered True ManagementCluster', () => {
      const cluster = clusterResource('infrared-mgmt', {
        spec: { type: 'management', connection: { inCluster: true } },
        status: {
          gitopsPath:
            'registry/clusters/infrared-mgmt/components/cluster-infrared-mgmt.yaml',
          pullRequest: { url: 'file:///g#abc', commit: 'abc', merged: true },
        },
      });
      const plan = planCluster(observe(cluster));
      expect(plan.publish).toBeUndefined();
      expect(condition(plan.status.conditions, 'Registered')).toMatchObject({
        status: 'True',
        reason: 'ManagementCluster',
        message: expect.stringContaining(
          "gitops repo's root Application registry-infrared-mgmt",
        ),
      });
      // what an earlier version published for it is no longer claimed
      expect(plan.status.gitopsPath).toBeUndefined();
      expect(plan.status.pullRequest).toBeUndefined();
    });

    it('still registers an inCluster workload cluster with its pull request', () => {
      const cluster = clusterResource('edge-local', {
        spec: { type: 'workload', connection: { inCluster: true } },
      });
      const plan = planCluster(observe(cluster));
      expect(Object.keys(plan.publish!.change.files)).toContain(
        'registry/clusters/infrared-mgmt/components/cluster-edge-local.yaml',
      );
    });

    it('waits on the pull request an earlier pass left open instead of opening another', () => {
      const cluster = clusterResource('edge', {
        status: {
          pullRequest: {
            url: 'https://github.example/o/r/pull/7',
            number: 7,
            commit: 'c0ffee',
            merged: false,
          },
          conditions: [
            {
              type: 'Registered',
              status: 'False',
              reason: 'PullRequestOpen',
              message: 'waiting',
              lastTransitionTime: EARLIER,
              observedGeneration: 1,
            },
          ],
        },
      });
      const plan = planCluster(observe(cluster));
      expect(plan.publish?.pending).toEqual({
        url: 'https://github.example/o/r/pull/7',
        number: 7,
      });
      // a fresh registration has nothing pending
      expect(
        planCluster(observe(clusterResource('edge'))).publish,
      ).not.toHaveProperty('pending');
    });

    it.each([
      ['the same generation: not reopened', 1, false],
      ['a new generation: a new pull request', 2, true],
    ])(
      'after a pull request closed by a human, %s',
      (_what, generation, publishes) => {
        const cluster = clusterResource('edge', {
          metadata: { generation },
          status: {
            conditions: [
              {
                type: 'Registered',
                status: 'False',
                reason: 'PullRequestClosed',
                message: 'closed',
                lastTransitionTime: EARLIER,
                observedGeneration: 1,
              },
            ],
          },
        });
        const plan = planCluster(observe(cluster));
        expect(!!plan.publish).toBe(publishes);
        expect(plan.publish?.pending).toBeUndefined();
      },
    );
  });

  describe('what a refused write means (a conflict requeues instead)', () => {
    const FAILED = {
      status: 'False',
      reason: 'ArgoSecretFailed',
      message: 'the Argo CD cluster Secret could not be written: forbidden',
    };
    const KEPT = { status: 'True' };
    const ours = (cluster: ClusterResource) =>
      stored(
        {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: {
            name: `cluster-${cluster.metadata.name}`,
            namespace: ARGOCD_NAMESPACE,
            ownerReferences: [ownerRef(cluster)],
          },
        },
        { uid: 'argo-uid' },
      );
    const mgmt = clusterResource('infrared-mgmt', {
      spec: { type: 'management', connection: { inCluster: true } },
    });
    const inClusterWorkload = clusterResource('edge-local', {
      spec: { connection: { inCluster: true } },
    });
    const rotated = registered(
      clusterResource('edge', { metadata: { generation: 2 } }),
      1,
    );

    it.each([
      [
        'the kubeconfig Secret adopted: only logged, nothing stops',
        () =>
          observe(clusterResource('edge'), {
            kubeconfigSecret: storedKubeconfigSecret('edge'),
            argoSecret: rightArgoSecret(clusterResource('edge')),
          }),
        'adoptKubeconfigSecret',
        undefined,
      ],
      [
        'the Argo CD Secret created before the first registration: Registered False ArgoSecretFailed',
        () => observe(clusterResource('edge')),
        'createArgoSecret',
        FAILED,
      ],
      [
        'the Argo CD Secret rewritten for a new generation: nothing published, an earlier True kept',
        () =>
          observe(rotated, {
            argoSecret: rightArgoSecret(
              rotated,
              kubeconfigText({ token: 'old-token' }),
            ),
          }),
        'replaceArgoSecret',
        KEPT,
      ],
      [
        "a stale Argo CD Secret of an inCluster workload cluster's: Registered False ArgoSecretFailed",
        () =>
          observe(inClusterWorkload, { argoSecret: ours(inClusterWorkload) }),
        'deleteArgoSecret',
        FAILED,
      ],
      [
        "a stale Argo CD Secret of the management cluster's: it stays Registered",
        () => observe(mgmt, { argoSecret: ours(mgmt) }),
        'deleteArgoSecret',
        KEPT,
      ],
    ])('%s', (_what, observed, type, registeredAfter) => {
      const seen = observed();
      const plan = planCluster(seen);
      const action = plan.actions.find(a => a.type === type)!;
      expect(action).toBeDefined();
      expect('stopsRegistration' in action).toBe(!!registeredAfter);
      if (!registeredAfter) return;
      const settled = settleRegistered(seen, plan, {
        refused: { action, message: 'forbidden' },
      });
      expect(condition(settled.status.conditions, 'Registered')).toMatchObject(
        registeredAfter,
      );
    });
  });

  describe("another's Argo CD Secret", () => {
    const foreignSecret = (
      labels: Record<string, string>,
      annotations?: Record<string, string>,
    ): SecretObject =>
      stored({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: 'cluster-edge',
          namespace: ARGOCD_NAMESPACE,
          labels: { 'argocd.argoproj.io/secret-type': 'cluster', ...labels },
          ...(annotations ? { annotations } : {}),
        },
        type: 'Opaque',
        stringData: {
          name: 'edge',
          server: 'https://203.0.113.9:6443',
          config: '{}',
        },
      });

    it.each([
      ['made by hand', foreignSecret({}), /was made by hand/],
      [
        'the registrar',
        foreignSecret({
          'argocd-cluster-registrar/managed-by': 'cluster-registrar',
          'argocd-cluster-registrar/source-namespace': 'k3k-edge',
        }),
        /child-cluster registrar .*k3k-edge/,
      ],
      [
        'another tool',
        foreignSecret({ 'app.kubernetes.io/managed-by': 'Helm' }),
        /another tool, Helm/,
      ],
    ])(
      'of %s is never written: Registered False ArgoSecretConflict, nothing published',
      (_who, argoSecret, message) => {
        const cluster = clusterResource('edge', {
          status: {
            argoSecret: 'cluster-edge',
            conditions: [
              {
                type: 'Registered',
                status: 'True',
                reason: 'Registered',
                message: 'registered',
                lastTransitionTime: EARLIER,
                observedGeneration: 1,
              },
            ],
          },
        });
        const plan = planCluster(observe(cluster, { argoSecret }));
        expect(
          plan.actions.filter(a => a.type !== 'adoptKubeconfigSecret'),
        ).toEqual([]);
        expect(plan.publish).toBeUndefined();
        expect(condition(plan.status.conditions, 'Registered')).toMatchObject({
          status: 'False',
          reason: 'ArgoSecretConflict',
          message,
        });
        expect(plan.status.argoSecret).toBeUndefined();
      },
    );

    it('is ours when the Cluster owns it, even with its labels edited away', () => {
      const cluster = clusterResource('edge');
      const argoSecret = foreignSecret({});
      argoSecret.metadata.ownerReferences = [ownerRef(cluster)];
      const plan = planCluster(observe(cluster, { argoSecret }));
      expect(plan.actions.map(a => a.type)).toContain('replaceArgoSecret');
      expect(plan.publish).toBeDefined();
    });
  });

  describe('settleRegistered after a publish', () => {
    const observed = observe(clusterResource('edge'));
    const planned = planCluster(observed);
    /** Registered from the publisher's answer, the plan's default branch as given. */
    const complete = (
      published: { result: GitopsPublishResult } | { error: Error },
      defaultBranch?: string,
    ) =>
      settleRegistered(
        observed,
        { ...planned, publish: { ...planned.publish!, defaultBranch } },
        { published },
      ).status;
    const APP_OF_APPS =
      'registry/clusters/infrared-mgmt/components/cluster-edge.yaml';
    const result: GitopsPublishResult = {
      url: 'https://github.example/o/r/pull/7',
      commit: 'c0ffee',
      merged: true,
      state: 'merged',
      pullRequest: { number: 7, url: 'https://github.example/o/r/pull/7' },
    };

    it('sets Registered True with the pull request and the gitops path', () => {
      const status = complete({ result });
      expect(condition(status.conditions, 'Registered')).toEqual({
        type: 'Registered',
        status: 'True',
        reason: 'Registered',
        message:
          'the gitops repo registers the cluster: pull request #7, commit c0ffee (https://github.example/o/r/pull/7)',
        lastTransitionTime: NOW,
        observedGeneration: 1,
      });
      expect(status.pullRequest).toEqual({
        url: 'https://github.example/o/r/pull/7',
        number: 7,
        commit: 'c0ffee',
        merged: true,
      });
      expect(status.gitopsPath).toBe(APP_OF_APPS);
    });

    it('records the default branch with a merged change only (an open pull request is on its own branch)', () => {
      const merged = complete({ result }, 'main');
      expect(merged.pullRequest).toEqual({
        url: 'https://github.example/o/r/pull/7',
        number: 7,
        commit: 'c0ffee',
        merged: true,
        branch: 'main',
      });
      const open = complete(
        { result: { ...result, merged: false, state: 'open' } },
        'main',
      );
      expect(open.pullRequest).not.toHaveProperty('branch');
    });

    it("says what a user can act on for a local repository's change: never its file path", () => {
      const local = 'file:///home/me/portal/.data/gitops.git#5af482f0c1d2';
      const status = complete(
        {
          result: {
            url: local,
            commit: '5af482f0c1d2',
            merged: true,
            state: 'merged',
            pullRequest: { number: 3, url: local },
          },
        },
        'main',
      );
      const message = condition(status.conditions, 'Registered')!.message;
      expect(message).toBe(
        'the gitops repo registers the cluster: pull request #3, commit 5af482f on main',
      );
      expect(message).not.toContain('file:');
    });

    it('records the commit when nothing had to change (no pull request)', () => {
      const status = complete({
        result: {
          url: 'file:///g#abc',
          commit: 'abc',
          merged: true,
          state: 'merged',
        },
      });
      expect(status.pullRequest).toEqual({
        url: 'file:///g#abc',
        commit: 'abc',
        merged: true,
      });
    });

    it('is False PullRequestClosed when a human closed the pull request unmerged', () => {
      const status = complete({
        result: { ...result, merged: false, state: 'closed' },
      });
      expect(condition(status.conditions, 'Registered')).toMatchObject({
        status: 'False',
        reason: 'PullRequestClosed',
        message: expect.stringContaining('https://github.example/o/r/pull/7'),
      });
      expect(status.gitopsPath).toBeUndefined();
    });

    it('is False PullRequestOpen while the pull request waits to be merged', () => {
      const status = complete({
        result: { ...result, merged: false, state: 'open' },
      });
      expect(condition(status.conditions, 'Registered')).toMatchObject({
        status: 'False',
        reason: 'PullRequestOpen',
      });
      expect(status.gitopsPath).toBeUndefined();
    });

    it("shows a publisher's error message as it is", () => {
      const message =
        'GitHub refused the merge of pull request #7: branch protection requires 1 review';
      const status = complete({ error: new Error(message) });
      expect(condition(status.conditions, 'Registered')).toMatchObject({
        status: 'False',
        reason: 'PublishFailed',
        message,
      });
    });
  });

  describe('conditions and status', () => {
    it('keeps lastTransitionTime while the status stays, even when the message changes', () => {
      const cluster = registered(clusterResource('edge'));
      const plan = planCluster(
        observe(cluster, {
          probe: { ok: true, kubernetesVersion: 'v1.37.3', nodes: 5 },
        }),
      );
      const connected = condition(plan.status.conditions, 'Connected')!;
      expect(connected.lastTransitionTime).toBe(EARLIER);
      expect(connected.message).toContain('5 nodes');
    });

    it('moves lastTransitionTime when the status changes', () => {
      const cluster = registered(clusterResource('edge'));
      const plan = planCluster(
        observe(cluster, {
          probe: { ok: false, reason: 'Unreachable', message: 'down' },
        }),
      );
      expect(
        condition(plan.status.conditions, 'Connected')!.lastTransitionTime,
      ).toBe(NOW);
      expect(
        condition(plan.status.conditions, 'Registered')!.lastTransitionTime,
      ).toBe(EARLIER);
    });

    it('records observedGeneration on the status and its conditions', () => {
      const cluster = clusterResource('edge', { metadata: { generation: 4 } });
      const plan = planCluster(observe(cluster));
      expect(plan.status.observedGeneration).toBe(4);
      expect(
        condition(plan.status.conditions, 'Connected')!.observedGeneration,
      ).toBe(4);
    });

    it('keeps what other reconcilers own in the status', () => {
      const foreign = {
        type: 'Provisioned',
        status: 'True' as const,
        reason: 'Applied',
        message: 'done',
        lastTransitionTime: EARLIER,
      };
      const provision = {
        action: 'plan',
        generation: 1,
        job: 'tofu-edge-1-plan',
        phase: 'Succeeded' as const,
      };
      const current = { conditions: [foreign], provision, detected: true };
      const merged = mergeOwnedStatus(current, {
        conditions: [
          { ...foreign, type: 'Connected', reason: 'Connected' },
          { ...foreign, status: 'False', reason: 'Other' },
        ],
        nodes: 1,
      });
      expect(merged.provision).toEqual(provision);
      expect(merged.detected).toBe(true);
      expect(merged.nodes).toBe(1);
      expect(merged.conditions?.map(c => [c.type, c.reason])).toEqual([
        ['Provisioned', 'Applied'],
        ['Connected', 'Connected'],
      ]);
    });

    it('asks for no status write when nothing changed', () => {
      const cluster = clusterResource('edge');
      const first = planCluster(observe(cluster));
      const written = { ...cluster, status: first.status };
      const second = planCluster(
        observe(written, { now: '2026-03-01T00:00:00.000Z' }),
      );
      expect(statusChanged(written.status, second.status)).toBe(false);
    });

    it('leaves a Cluster that is being deleted alone', () => {
      const cluster = clusterResource('edge', {
        metadata: { deletionTimestamp: NOW },
      });
      const plan = planCluster(observe(cluster));
      expect(plan).toEqual({
        actions: [],
        status: {},
        skipped: 'being deleted',
      });
    });
  });
});
