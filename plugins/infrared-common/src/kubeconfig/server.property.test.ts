import fc from 'fast-check';
import { validateRegisterClusterRequest } from '../api/validate';
import { displayServer } from './cluster';
import { inspectKubeconfig } from './inspect';

const secret = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/).map(s => `S3CR3T${s}`);

/** An address with a credential in it: as user information, a query or a fragment. */
const addressWithSecret = fc
  .tuple(
    fc.constantFrom('https', 'http', 'file', 'ftp', 'socks5h'),
    fc.domain(),
    fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    secret,
    fc.constantFrom('userinfo', 'user', 'query', 'fragment'),
  )
  .map(([scheme, host, port, value, where]) => {
    const at = `${host}${port ? `:${port}` : ''}`;
    const url = {
      userinfo: `${scheme}://admin:${value}@${at}/`,
      user: `${scheme}://${value}@${at}`,
      query: `${scheme}://${at}/?token=${value}`,
      fragment: `${scheme}://${at}/#${value}`,
    }[where];
    return { url, value };
  });

const kubeconfigWith = (server: string) =>
  [
    `clusters: [{name: c, cluster: {server: '${server}'}}]`,
    'users: [{name: u, user: {token: abcdefgh}}]',
  ].join('\n');

describe('server addresses with a credential in them', () => {
  it('are refused, naming the field, and no message shows the credential', () => {
    expect(() =>
      fc.assert(
        fc.property(addressWithSecret, ({ url, value }) => {
          const fromKubeconfig = inspectKubeconfig(kubeconfigWith(url));
          const fromBody = validateRegisterClusterRequest({
            name: 'edge',
            inCluster: true,
            server: url,
          });
          const messages = JSON.stringify([fromKubeconfig, fromBody]);
          return (
            !fromKubeconfig.ok &&
            fromKubeconfig.errors.some(
              e => e.field === 'kubeconfig.clusters[0].cluster.server',
            ) &&
            'errors' in fromBody &&
            fromBody.errors.some(e => e.field === 'server') &&
            !messages.includes(value) &&
            !displayServer(url).includes(value)
          );
        }),
        { numRuns: 1000 },
      ),
    ).not.toThrow();
  });
});
