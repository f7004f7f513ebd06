import { inspectKubeconfig } from './inspect';
import { single } from './testing';

const FIELD = 'kubeconfig.users[0].user.exec';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

function withExec(
  command: string,
  args: string[],
  extra: Record<string, unknown> = {},
) {
  return single({ exec: { apiVersion: V1BETA1, command, args, ...extra } });
}

describe('inspectKubeconfig: exec credentials it refuses even when allowed', () => {
  const allow = { allowExec: true };

  it.each([
    [
      'an identity flag (by policy)',
      'aws',
      [
        'eks',
        'get-token',
        '--cluster-name',
        'p',
        '--role-arn',
        'arn:aws:iam::1:role/x',
      ],
      `${FIELD}.args`,
      /passes --role-arn to aws, which Infrared does not forward: it names the identity/,
    ],
    [
      '--profile',
      'aws',
      ['--profile', 'dev', 'eks', 'get-token', '--cluster-name', 'p'],
      `${FIELD}.args`,
      /--profile.*names the identity/,
    ],
    [
      '-r to the authenticator',
      'aws-iam-authenticator',
      ['token', '-i', 'c', '-r', 'arn'],
      `${FIELD}.args`,
      /passes -r to aws-iam-authenticator/,
    ],
    [
      'an unsupported flag',
      'aws',
      ['eks', 'get-token', '--cluster-name', 'p', '--external-id', 'x'],
      `${FIELD}.args`,
      /--external-id to aws, which argocd-k8s-auth does not accept/,
    ],
    [
      'aws without eks get-token',
      'aws',
      ['sts', 'get-caller-identity'],
      `${FIELD}.args`,
      /not "eks get-token"/,
    ],
    [
      'aws without a cluster name',
      'aws',
      ['eks', 'get-token'],
      `${FIELD}.args`,
      /without --cluster-name/,
    ],
    [
      'the authenticator without -i',
      'aws-iam-authenticator',
      ['token'],
      `${FIELD}.args`,
      /without -i\/--cluster-id/,
    ],
    [
      'gke-gcloud-auth-plugin',
      'gke-gcloud-auth-plugin',
      [],
      `${FIELD}.command`,
      /"gke-gcloud-auth-plugin" has no Argo CD equivalent: only aws, aws-iam-authenticator, heptio-authenticator-aws, kubelogin/,
    ],
  ])('refuses %s', (_case, command, args, field, message) => {
    const r = inspectKubeconfig(withExec(command, args), allow);
    expect(!r.ok && r.errors).toEqual([
      { field, message: expect.stringMatching(message) },
    ]);
  });

  it('refuses an exec apiVersion client-go does not know', () => {
    const r = inspectKubeconfig(
      withExec('kubelogin', [], {
        apiVersion: 'client.authentication.k8s.io/v1alpha1',
      }),
      allow,
    );
    expect(!r.ok && r.errors).toEqual([
      {
        field: `${FIELD}.apiVersion`,
        message: expect.stringMatching(/not one client-go accepts/),
      },
    ]);
  });

  it('refuses args that are not a list of strings', () => {
    const r = inspectKubeconfig(withExec('aws', 'eks get-token' as any), allow);
    expect(!r.ok && r.errors[0]).toEqual({
      field: `${FIELD}.args`,
      message: 'args must be a list of strings',
    });
  });

  it('never copies the source command into the config', () => {
    const r = inspectKubeconfig(
      withExec('/tmp/evil/aws', [
        '--region',
        'r',
        'eks',
        'get-token',
        '--cluster-name',
        'p',
      ]),
      allow,
    );
    expect(JSON.stringify(r.ok && r.argoConfig)).not.toContain('/tmp/evil');
  });
});
