import { stringify } from 'yaml';
import {
  CA,
  kubeconfigText,
  SERVER,
  TOKEN,
} from '../../clusters/__testUtils__/fixtures';

/**
 * Every way POST /v1/clusters is refused with 400: the request, and what the message must say
 * (the field and the reason). The router tests and the integration tests both go through them.
 */
export const BAD_REQUESTS: Array<[string, unknown, RegExp[]]> = [
  [
    'an upper-case name',
    { name: 'Edge', inCluster: true },
    [/name/, /lowercase/],
  ],
  [
    'a name over 42 characters',
    { name: 'e'.repeat(43), inCluster: true },
    [/name/, /43 characters/, /at most 42/],
  ],
  [
    'a name starting with a hyphen',
    { name: '-edge', inCluster: true },
    [/name/, /start and end/],
  ],
  ['no name', { inCluster: true }, [/name/, /required/]],
  [
    'a kubeconfig that is not YAML',
    { name: 'edge', kubeconfig: 'clusters: [: nope' },
    [/kubeconfig/, /not valid YAML/],
  ],
  [
    'no current context and more than one context',
    {
      name: 'edge',
      kubeconfig: stringify({
        clusters: [
          { name: 'a', cluster: { server: SERVER } },
          { name: 'b', cluster: { server: SERVER } },
        ],
        users: [
          { name: 'a', user: { token: TOKEN } },
          { name: 'b', user: { token: TOKEN } },
        ],
        contexts: [
          { name: 'a', context: { cluster: 'a', user: 'a' } },
          { name: 'b', context: { cluster: 'b', user: 'b' } },
        ],
      }),
    },
    [/current-context/, /more than one context/],
  ],
  [
    'a user with exec',
    {
      name: 'edge',
      kubeconfig: kubeconfigText({
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          command: 'aws',
          args: ['eks', 'get-token', '--cluster-name', 'edge'],
        },
      }),
    },
    [
      /users\[0\]\.user\.exec/,
      /because Argo CD needs a credential it can store/,
    ],
  ],
  [
    'a user with auth-provider',
    {
      name: 'edge',
      kubeconfig: kubeconfigText({ 'auth-provider': { name: 'oidc' } }),
    },
    [/auth-provider/, /because Argo CD needs a credential it can store/],
  ],
  [
    'a user with a token file',
    {
      name: 'edge',
      kubeconfig: kubeconfigText({ tokenFile: '/var/run/token' }),
    },
    [/tokenFile/, /because Argo CD needs a credential it can store/],
  ],
  [
    'file paths for the client certificate and key',
    {
      name: 'edge',
      kubeconfig: kubeconfigText({
        'client-certificate': '/home/me/.kube/cert.pem',
        'client-key': '/home/me/.kube/key.pem',
      }),
    },
    [/client-certificate is a file path/, /client-key is a file path/],
  ],
  [
    'a file path for the certificate authority',
    {
      name: 'edge',
      kubeconfig: kubeconfigText(
        { token: TOKEN },
        { server: SERVER, 'certificate-authority': '/etc/ca.pem' },
      ),
    },
    [/certificate-authority is a file path/],
  ],
  [
    'insecure-skip-tls-verify together with a CA, which Argo CD refuses',
    {
      name: 'edge',
      kubeconfig: kubeconfigText(
        { token: TOKEN },
        {
          server: SERVER,
          'insecure-skip-tls-verify': true,
          'certificate-authority-data': CA,
        },
      ),
    },
    [
      /kubeconfig\.clusters\[0\]\.cluster\.insecure-skip-tls-verify/,
      /refused by Argo CD/,
      /specifying a root certificates file with the insecure flag is not allowed/,
      /remove insecure-skip-tls-verify/,
    ],
  ],
  [
    'a socks5h proxy-url, which Argo CD refuses',
    {
      name: 'edge',
      kubeconfig: kubeconfigText(
        { token: TOKEN },
        {
          server: SERVER,
          'certificate-authority-data': CA,
          'proxy-url': 'socks5h://198.51.100.1:1080',
        },
      ),
    },
    [
      /kubeconfig\.clusters\[0\]\.cluster\.proxy-url/,
      /scheme socks5h, which Argo CD \(and kubectl, client-go\) refuse/,
      /use socks5:\/\/ instead/,
    ],
  ],
  [
    'a user with a token and basic auth, which Argo CD refuses',
    {
      name: 'edge',
      kubeconfig: kubeconfigText({
        token: TOKEN,
        username: 'u',
        password: 'p',
      }),
    },
    [
      /kubeconfig\.users\[0\]\.user\.username/,
      /username\/password or bearer token may be set, but not both/,
    ],
  ],
  [
    'a user without any credential',
    { name: 'edge', kubeconfig: kubeconfigText({}) },
    [/users\[0\]\.user/, /no credential/],
  ],
  [
    'both kubeconfig and inCluster',
    { name: 'edge', kubeconfig: kubeconfigText(), inCluster: true },
    [/kubeconfig/, /either kubeconfig or inCluster: true, not both/],
  ],
  [
    'neither kubeconfig nor inCluster',
    { name: 'edge' },
    [/kubeconfig/, /either kubeconfig/],
  ],
  [
    'an unknown field',
    { name: 'edge', inCluster: true, token: TOKEN },
    [/unknown field "token"/],
  ],
  [
    'a flavor outside the list',
    { name: 'edge', inCluster: true, flavor: 'gke' },
    [/flavor must be one of k3s, eks/],
  ],
  ['a JSON array', [1, 2], [/body/, /JSON object/]],
];
