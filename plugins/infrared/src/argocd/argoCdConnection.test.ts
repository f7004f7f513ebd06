import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { argoCdConnectionOf } from './argoCdConnection';
import { ArgoCdOpenApi } from './__testUtils__/argoCdOpenApi';
import { redactCredentials } from './redactCredentials';

const state = (status: string, message = '') => ({
  info: { connectionState: { status, message } },
});

describe('argoCdConnectionOf', () => {
  it("reads Argo CD v3.6.1's own answer, recorded from the real argocd-server through the real proxy", () => {
    // Written by packages/backend/src/permissions/argocdProxy.argocd.integration.test.ts, which
    // also checks the live answer still has this shape.
    const recorded = JSON.parse(
      readFileSync(
        join(__dirname, '__fixtures__', 'argocd-v3.6.1-clusters.json'),
        'utf8',
      ),
    );
    // v3.6.1's server adds Cluster.configHash (types.go), which Argo CD's published swagger does
    // not describe; everything else is as the description the fake checks against says.
    const described = {
      ...recorded,
      items: recorded.items.map(({ configHash, ...item }: any) => item),
    };
    expect(
      ArgoCdOpenApi.load().checkResponse('ClusterService_List', 200, described),
    ).toEqual([]);
    const inCluster = recorded.items.find(
      (c: any) => c.server === 'https://kubernetes.default.svc',
    );
    expect(
      argoCdConnectionOf(
        { name: 'infrared-mgmt', argoServer: 'https://kubernetes.default.svc' },
        recorded.items,
      ),
    ).toEqual({
      status: 'Successful',
      attemptedAt: inCluster.info.connectionState.attemptedAt,
    });
  });

  it("picks, among Argo CD's entries with the cluster's server, the one named like the cluster", () => {
    const items = [
      { name: 'alias', server: 'https://a:6443', ...state('Failed', 'old') },
      { name: 'edge', server: 'https://a:6443/', ...state('Successful') },
      { name: 'edge', server: 'https://b:6443', ...state('Failed', 'b') },
    ];
    expect(
      argoCdConnectionOf({ name: 'edge', argoServer: 'https://a:6443' }, items),
    ).toEqual({ status: 'Successful' });
    expect(
      argoCdConnectionOf(
        { name: 'other', argoServer: 'https://a:6443//' },
        items,
      ),
    ).toEqual({ status: 'Failed', message: 'old' });
  });

  it('looks a cluster without an Argo CD server up by name, and says when Argo CD lists none', () => {
    const items = [
      { name: 'edge', server: 'https://b', ...state('Failed', 'x') },
    ];
    expect(argoCdConnectionOf({ name: 'edge' }, items)).toEqual({
      status: 'Failed',
      message: 'x',
    });
    expect(argoCdConnectionOf({ name: 'gone' }, items)).toEqual({
      status: 'Unknown',
      reason: 'Argo CD lists no cluster named gone',
    });
  });

  it("keeps Argo CD's own Unknown message, and gives a Failed without one a reason", () => {
    const server = 'https://a';
    expect(
      argoCdConnectionOf({ name: 'a', argoServer: server }, [
        { server, ...state('Unknown', 'cache not synced') },
      ]),
    ).toEqual({ status: 'Unknown', reason: 'cache not synced' });
    expect(
      argoCdConnectionOf({ name: 'a', argoServer: server }, [
        { server, ...state('Failed') },
      ]),
    ).toEqual({ status: 'Failed', message: 'Argo CD gave no message' });
  });
});

describe('redactCredentials', () => {
  it.each([
    ['Authorization: Bearer abc.def-123', 'Authorization: Bearer [redacted]'],
    ['basic dXNlcjpwYXNz rejected', 'basic [redacted] rejected'],
    ['basic auth failed', 'basic auth failed'],
    ['{"token":"s3cr3t-value"}', '{"token":"[redacted]"}'],
    ['password=hunter2; user=admin', 'password=[redacted]; user=admin'],
    ['bearerToken: abcdef', 'bearerToken: [redacted]'],
    ['x eyJhbGciOi.eyJzdWIi.c2ln y', 'x [redacted] y'],
    [
      'dial tcp 10.0.0.1:6443: i/o timeout',
      'dial tcp 10.0.0.1:6443: i/o timeout',
    ],
  ])('%s', (input, output) => {
    expect(redactCredentials(input)).toBe(output);
  });
});
