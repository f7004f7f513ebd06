import { argoCdConnectionOf } from './argoCdConnection';
import { redactCredentials } from './redactCredentials';

const state = (status: string, message = '') => ({
  info: { connectionState: { status, message } },
});

describe('argoCdConnectionOf', () => {
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
