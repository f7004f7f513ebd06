import { single } from '../kubeconfig/testing';
import { validateRegisterClusterRequest } from './validate';

const kubeconfig = single({ token: 'sa-token' });

function errorsOf(body: unknown) {
  const r = validateRegisterClusterRequest(body);
  if (!('errors' in r))
    throw new Error(`expected errors, got ${JSON.stringify(r)}`);
  return r.errors;
}

describe('validateRegisterClusterRequest', () => {
  it('accepts a kubeconfig request and returns the inspection', () => {
    const body = {
      name: 'edge-us-east-1',
      kubeconfig,
      flavor: 'k3s',
      provider: 'aws',
      region: 'us-east-1',
    };
    const r = validateRegisterClusterRequest(body);
    expect(r).toEqual({
      value: body,
      kubeconfig: expect.objectContaining({
        ok: true,
        credentialKind: 'token',
        server: 'https://203.0.113.10:6443',
      }),
    });
  });

  it('accepts an inCluster request, and treats inCluster: false as absent', () => {
    expect(
      validateRegisterClusterRequest({ name: 'local', inCluster: true }),
    ).toEqual({
      value: { name: 'local', inCluster: true },
    });
    const r = validateRegisterClusterRequest({
      name: 'e',
      kubeconfig,
      inCluster: false,
    });
    expect('value' in r && r.value).toEqual({ name: 'e', kubeconfig });
  });

  it('accepts an https server override', () => {
    const r = validateRegisterClusterRequest({
      name: 'e',
      kubeconfig,
      server: 'https://edge.example:6443',
    });
    expect('value' in r && r.value.server).toBe('https://edge.example:6443');
  });

  it.each([
    [
      'both kubeconfig and inCluster',
      { name: 'e', kubeconfig, inCluster: true },
      'kubeconfig',
      /either kubeconfig or inCluster: true, not both/,
    ],
    [
      'neither kubeconfig nor inCluster',
      { name: 'e' },
      'kubeconfig',
      /either kubeconfig .* or inCluster: true/,
    ],
    [
      'a 43-character name',
      { name: 'a'.repeat(43), inCluster: true },
      'name',
      /43 characters long; at most 42/,
    ],
    [
      'an uppercase name',
      { name: 'Edge', inCluster: true },
      'name',
      /lowercase/,
    ],
    [
      'a leading hyphen',
      { name: '-edge', inCluster: true },
      'name',
      /must start and end/,
    ],
    ['no name', { inCluster: true }, 'name', /^name is required$/],
    [
      'a numeric name',
      { name: 7, inCluster: true },
      'name',
      /^name must be a string$/,
    ],
    [
      'an unknown flavor',
      { name: 'e', inCluster: true, flavor: 'gke' },
      'flavor',
      /^flavor must be one of k3s, eks$/,
    ],
    [
      'an unknown provider',
      { name: 'e', inCluster: true, provider: 'azure' },
      'provider',
      /^provider must be one of aws, gcp, linode, local$/,
    ],
    [
      'a region with spaces',
      { name: 'e', inCluster: true, region: 'us east' },
      'region',
      /like us-east-1/,
    ],
    [
      'an http server',
      { name: 'e', inCluster: true, server: 'http://edge:6443' },
      'server',
      /is plain http: the cluster credential would cross the network unencrypted/,
    ],
    [
      'a server that is not a URL',
      { name: 'e', inCluster: true, server: 'edge' },
      'server',
      /is not a URL/,
    ],
    [
      'a server with user information',
      { name: 'e', inCluster: true, server: 'https://u:secret@edge:6443' },
      'server',
      /^server "https:\/\/edge:6443" carries user information/,
    ],
    [
      'a server with a query',
      { name: 'e', inCluster: true, server: 'https://edge:6443?insecure=1' },
      'server',
      /^server "https:\/\/edge:6443" has a query or fragment/,
    ],
    [
      'a server in capitals',
      { name: 'e', inCluster: true, server: 'HTTPS://EDGE:6443' },
      'server',
      /must be an https:\/\/ URL/,
    ],
    [
      'the in-cluster server',
      { name: 'e', kubeconfig, server: 'https://kubernetes.default.svc' },
      'server',
      /inCluster: true instead/,
    ],
    [
      'an unknown field',
      { name: 'e', inCluster: true, incluster: true },
      'incluster',
      /unknown field "incluster"/,
    ],
    [
      'a kubeconfig that is not a string',
      { name: 'e', kubeconfig: { clusters: [] } },
      'kubeconfig',
      /must be a string/,
    ],
    [
      'a kubeconfig that is not YAML',
      { name: 'e', kubeconfig: 'a: b: c' },
      'kubeconfig',
      /not valid YAML/,
    ],
    [
      'an exec kubeconfig',
      { name: 'e', kubeconfig: single({ exec: { command: 'aws' } }) },
      'kubeconfig.users[0].user.exec',
      /because Argo CD needs a credential it can store/,
    ],
    [
      'a kubeconfig at the in-cluster address',
      {
        name: 'e',
        kubeconfig: single(
          { token: 't' },
          { server: 'https://kubernetes.default.svc' },
        ),
      },
      'kubeconfig.clusters[0].cluster.server',
      /in-cluster address/,
    ],
  ])('refuses %s', (_case, body, field, message) => {
    expect(errorsOf(body)).toEqual([
      { field, message: expect.stringMatching(message) },
    ]);
  });

  it.each([null, 'name=e', [1], 3])(
    'refuses a body that is not an object: %p',
    body => {
      expect(errorsOf(body)).toEqual([
        { field: 'body', message: 'the request body must be a JSON object' },
      ]);
    },
  );

  it("reports every problem at once, the kubeconfig's included", () => {
    const errors = errorsOf({
      name: 'Bad_Name',
      kubeconfig: single({}),
      flavor: 'x',
    });
    expect(errors.map(e => e.field).sort()).toEqual([
      'flavor',
      'kubeconfig.users[0].user',
      'name',
    ]);
  });
});
