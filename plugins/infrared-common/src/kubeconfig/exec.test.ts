import { inspectKubeconfig } from './inspect';
import { single } from './testing';

const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

function withExec(
  command: string,
  args: string[],
  extra: Record<string, unknown> = {},
) {
  return single({ exec: { apiVersion: V1BETA1, command, args, ...extra } });
}

describe('inspectKubeconfig: exec credentials when allowed', () => {
  const allow = { allowExec: true };

  it.each([
    [
      'aws eks get-token without a region',
      'aws',
      ['eks', 'get-token', '--cluster-name', 'prod', '--output', 'json'],
      { awsAuthConfig: { clusterName: 'prod' } },
    ],
    [
      'aws eks get-token with --region',
      '/usr/bin/aws',
      ['--region', 'eu-west-1', 'eks', 'get-token', '--cluster-name=prod'],
      {
        execProviderConfig: {
          command: 'argocd-k8s-auth',
          args: ['aws', '--cluster-name', 'prod'],
          env: { AWS_REGION: 'eu-west-1' },
          apiVersion: V1BETA1,
        },
      },
    ],
    [
      'aws-iam-authenticator -i',
      'aws-iam-authenticator',
      ['token', '-i', 'capa-eks'],
      { awsAuthConfig: { clusterName: 'capa-eks' } },
    ],
    [
      'heptio-authenticator-aws --cluster-id with a region',
      'heptio-authenticator-aws',
      ['token', '--cluster-id', 'c1', '--region', 'us-east-2'],
      {
        execProviderConfig: {
          command: 'argocd-k8s-auth',
          args: ['aws', '--cluster-name', 'c1'],
          env: { AWS_REGION: 'us-east-2' },
          apiVersion: V1BETA1,
        },
      },
    ],
    [
      'kubelogin, keeping only the server id and environment',
      'kubelogin',
      [
        'get-token',
        '--login',
        'devicecode',
        '--server-id',
        'srv',
        '--environment',
        'AzurePublicCloud',
        '--client-id',
        'c',
      ],
      {
        execProviderConfig: {
          command: 'argocd-k8s-auth',
          args: ['azure'],
          env: {
            AAD_SERVER_APPLICATION_ID: 'srv',
            AAD_ENVIRONMENT_NAME: 'AzurePublicCloud',
          },
          apiVersion: V1BETA1,
        },
      },
    ],
    [
      'kubelogin without flags',
      'kubelogin',
      ['get-token'],
      {
        execProviderConfig: {
          command: 'argocd-k8s-auth',
          args: ['azure'],
          apiVersion: V1BETA1,
        },
      },
    ],
  ])('converts %s', (_case, command, args, credential) => {
    const r = inspectKubeconfig(withExec(command, args), allow);
    expect(r).toMatchObject({
      ok: true,
      credentialKind: 'exec',
      execCommand: command.split('/').pop(),
    });
    expect(r.ok && r.argoConfig).toEqual({
      tlsClientConfig: { insecure: false, caData: expect.any(String) },
      ...credential,
    });
  });
});
