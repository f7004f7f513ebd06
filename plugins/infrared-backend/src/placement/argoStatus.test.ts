import type { ArgoObject } from '@infrared-clusters/infrared-kube';
import { applicationState, argoProblems } from './argoStatus';

const REF = 'ir-org-acme/checkout-v1';
const placement = {
  applicationName: 'product-checkout-rc',
  applicationPath:
    'registry/clusters/infrared-mgmt/components/product-checkout-rc.yaml',
};
const source = (name?: string) => ({
  ...(name ? { name } : {}),
  repoURL: 'git://127.0.0.1:9418/gitops.git',
  path: 'products/checkout/zones/checkout-rc',
  targetRevision: 'main',
});
/** A zone Application of Release `ref`, with the status Argo CD wrote (compared at `comparedTo`). */
const app = (
  status: any,
  ref = REF,
  comparedTo: string | null = ref,
): ArgoObject => ({
  metadata: {
    name: 'product-checkout-rc',
    namespace: 'argocd',
    annotations: { 'infrared.darkshift.io/release': ref },
  },
  spec: { source: source(ref) },
  status: {
    ...status,
    sync: {
      ...status.sync,
      comparedTo: { source: source(comparedTo ?? undefined) },
    },
  },
});
const SYNCED = { sync: { status: 'Synced' }, health: { status: 'Healthy' } };
// Shapes as Argo CD v3.6 writes them.
const notPermitted =
  "namespace kube-system is not permitted in project 'products'";
const syncFailed = {
  sync: { status: 'OutOfSync', revision: 'c0ffee' },
  health: { status: 'Healthy' },
  conditions: [
    {
      type: 'SyncError',
      message:
        'Failed last sync attempt to [c0ffee]: one or more synchronization tasks are not valid (retried 5 times).',
      lastTransitionTime: '2026-12-01T00:00:00Z',
    },
  ],
  operationState: {
    phase: 'Failed',
    message:
      'one or more synchronization tasks are not valid (retried 5 times).',
    syncResult: {
      revision: 'c0ffee',
      resources: [
        {
          group: '',
          version: 'v1',
          kind: 'ConfigMap',
          namespace: 'kube-system',
          name: 'intruder',
          status: 'SyncFailed',
          message: notPermitted,
        },
        {
          kind: 'ConfigMap',
          namespace: 'checkout-rc',
          name: 'checkout-release',
          status: 'Synced',
          message: 'configmap/checkout-release created',
        },
      ],
    },
  },
};

describe("a zone Application's state, from Argo CD's status", () => {
  it.each<[string, ArgoObject | undefined, boolean, RegExp]>([
    [
      'not created yet by the app-of-apps',
      undefined,
      false,
      /^waiting for Argo CD to create Application product-checkout-rc in namespace argocd from registry\/clusters\/infrared-mgmt/,
    ],
    [
      'still the Application of the last Release',
      app(SYNCED, 'ir-org-acme/checkout-v0'),
      false,
      /is still at release ir-org-acme\/checkout-v0; waiting for Argo CD to sync the change/,
    ],
    [
      "Synced and Healthy, but compared at the last Release's source: not yet",
      app(SYNCED, REF, 'ir-org-acme/checkout-v0'),
      false,
      /waiting for Argo CD to compare Application product-checkout-rc at release ir-org-acme\/checkout-v1 \(its status is of release ir-org-acme\/checkout-v0\)/,
    ],
    [
      'never compared',
      { ...app(SYNCED), status: {} },
      false,
      /waiting for Argo CD to compare .* \(not compared yet\)$/,
    ],
    [
      'compared at a source without a name (an earlier gate)',
      app(SYNCED, REF, null),
      false,
      /waiting for Argo CD to compare .* \(its status is of an earlier source\)$/,
    ],
    [
      'Synced and Healthy at this Release',
      app(SYNCED),
      true,
      /^Application product-checkout-rc is Synced and Healthy$/,
    ],
    [
      'an Application of an earlier gate without a source name',
      { ...app(SYNCED, REF, null), spec: { source: source() } },
      true,
      /is Synced and Healthy/,
    ],
    [
      'Progressing',
      app({ sync: { status: 'Synced' }, health: { status: 'Progressing' } }),
      false,
      /^Argo CD reports Application product-checkout-rc Synced and Progressing$/,
    ],
    [
      'ComparisonError (the repo-server could not render the directory)',
      app({
        sync: { status: 'Unknown' },
        health: { status: 'Healthy' },
        conditions: [
          {
            type: 'ComparisonError',
            message:
              'Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = Manifest generation error (cached): failed to unmarshal "values.yaml"',
          },
        ],
      }),
      false,
      /Unknown and Healthy: ComparisonError: Failed to load target state: failed to generate manifest .*values\.yaml/,
    ],
    [
      'InvalidSpecError (a destination the AppProject refuses)',
      app({
        sync: { status: 'Unknown' },
        health: { status: 'Unknown' },
        conditions: [
          {
            type: 'InvalidSpecError',
            message:
              "application destination server 'https://kubernetes.default.svc' and namespace 'checkout-rc' do not match any of the allowed destinations in project 'products'",
          },
        ],
      }),
      false,
      /Unknown and Unknown: InvalidSpecError: application destination .* do not match any of the allowed destinations in project 'products'$/,
    ],
    [
      'SyncError with the object Argo CD refused',
      app(syncFailed),
      false,
      /OutOfSync and Healthy: SyncError: Failed last sync attempt .*not valid \(retried 5 times\)\.; ConfigMap kube-system\/intruder: namespace kube-system is not permitted in project 'products'$/,
    ],
    [
      'a sync Argo CD retries (as v3.6.1 writes it for a namespace the AppProject refuses)',
      app({
        sync: { status: 'OutOfSync', revision: 'c0ffee' },
        health: { status: 'Missing' },
        operationState: {
          phase: 'Running',
          retryCount: 5,
          message: `one or more synchronization tasks are not valid: ${notPermitted}. Retrying attempt #5 at 2026-12-01T23:27:38Z.`,
        },
      }),
      false,
      /OutOfSync and Missing: sync Running: one or more synchronization tasks are not valid: namespace kube-system is not permitted in project 'products'\. Retrying attempt #5/,
    ],
    [
      'Synced and Healthy while the sync operation still runs (as seen on v3.6.1): not yet',
      app({
        ...SYNCED,
        operationState: {
          phase: 'Running',
          message: 'waiting for completion of hook batch/Job/smoke',
        },
      }),
      false,
      /Synced and Healthy: sync Running: waiting for completion of hook batch\/Job\/smoke$/,
    ],
    [
      'Synced and Healthy while the sync operation runs, without a message',
      app({ ...SYNCED, operationState: { phase: 'Running' } }),
      false,
      /Synced and Healthy: its sync is Running$/,
    ],
    [
      'Synced and Healthy, but a PostSync hook failed',
      app({
        ...SYNCED,
        operationState: {
          phase: 'Failed',
          message: 'one or more synchronization tasks completed unsuccessfully',
          syncResult: {
            resources: [
              {
                kind: 'Job',
                namespace: 'checkout-rc',
                name: 'smoke',
                hookPhase: 'Failed',
                message: 'Job has reached the specified backoff limit',
              },
            ],
          },
        },
      }),
      false,
      /Synced and Healthy: Job checkout-rc\/smoke: Job has reached the specified backoff limit; sync Failed: one or more synchronization tasks completed unsuccessfully$/,
    ],
    [
      'Synced and Healthy after a sync that succeeded',
      app({
        ...SYNCED,
        operationState: {
          phase: 'Succeeded',
          message: 'successfully synced (all tasks run)',
        },
      }),
      true,
      /^Application product-checkout-rc is Synced and Healthy$/,
    ],
    [
      'a sync that succeeded says nothing more',
      app({
        sync: { status: 'Synced' },
        health: { status: 'Progressing' },
        operationState: {
          phase: 'Succeeded',
          message: 'successfully synced (all tasks run)',
        },
      }),
      false,
      /^Argo CD reports Application product-checkout-rc Synced and Progressing$/,
    ],
    [
      'a Degraded object',
      app({
        sync: { status: 'Synced' },
        health: { status: 'Degraded' },
        resources: [
          {
            kind: 'Service',
            name: 'checkout',
            health: { status: 'Degraded', message: 'no ingress' },
          },
          { kind: 'ConfigMap', name: 'checkout-release' },
        ],
      }),
      false,
      /Synced and Degraded: Service checkout: no ingress$/,
    ],
  ])('%s', (_name, application, healthy, message) => {
    const state = applicationState(application, REF, placement);
    expect(state.healthy).toBe(healthy);
    expect(state.message).toMatch(message);
  });

  it("lists errors before warnings, a failed operation's message once (not when a condition quotes it), at most four messages, each cut", () => {
    const long = 'x'.repeat(1000);
    const problems = argoProblems({
      metadata: { name: 'a' },
      status: {
        conditions: [
          { type: 'SharedResourceWarning', message: 'shared' },
          { type: 'SyncError', message: 'sync failed' },
        ],
        operationState: { phase: 'Error', message: 'sync failed' },
        health: { message: long },
      },
    });
    expect(problems).toEqual([
      'SyncError: sync failed',
      'SharedResourceWarning: shared',
      `${'x'.repeat(399)}…`,
    ]);
    expect(
      argoProblems({
        metadata: { name: 'a' },
        status: { operationState: { phase: 'Failed', message: 'boom' } },
      }),
    ).toEqual(['sync Failed: boom']);
    expect(
      argoProblems({
        metadata: { name: 'a' },
        status: {
          conditions: [1, 2, 3, 4, 5].map(i => ({
            type: 'ComparisonError',
            message: `problem ${i}`,
          })),
        },
      }),
    ).toHaveLength(4);
    expect(argoProblems({ metadata: { name: 'a' } })).toEqual([]);
  });
});
