import fc from 'fast-check';
import { stringify } from 'yaml';
import { validateRegisterClusterRequest } from '../api/validate';
import { inspectKubeconfig } from './inspect';

/** YAML built from random values: mappings, lists, scalars of every type. */
const yamlOfAnything = fc
  .anything({ withNullPrototype: false, maxDepth: 4 })
  .map(value => stringify(value));

/** A kubeconfig's keys with random values in them, so the reader gets past its first checks. */
const kubeconfigish = fc
  .record(
    {
      clusters: fc.array(
        fc.record(
          {
            name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
            cluster: fc.oneof(
              fc.dictionary(
                fc.constantFrom(
                  'server',
                  'certificate-authority',
                  'certificate-authority-data',
                  'insecure-skip-tls-verify',
                  'proxy-url',
                  'tls-server-name',
                ),
                fc.oneof(
                  fc.string(),
                  fc.webUrl(),
                  fc.boolean(),
                  fc.integer(),
                  fc.base64String(),
                  fc.constant(null),
                ),
              ),
              fc.anything({ maxDepth: 2 }),
            ),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
      users: fc.array(
        fc.record(
          {
            name: fc.oneof(fc.string(), fc.integer()),
            user: fc.oneof(
              fc.dictionary(
                fc.constantFrom(
                  'token',
                  'tokenFile',
                  'client-certificate-data',
                  'client-key-data',
                  'client-certificate',
                  'client-key',
                  'username',
                  'password',
                  'exec',
                  'auth-provider',
                ),
                fc.anything({ maxDepth: 2 }),
              ),
              fc.anything({ maxDepth: 2 }),
            ),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
      contexts: fc.anything({ maxDepth: 3 }),
      'current-context': fc.oneof(fc.string(), fc.integer()),
    },
    { requiredKeys: [] },
  )
  .map(value => stringify(value));

/** Text that is mostly YAML syntax: anchors, aliases, tags, flow and block markers. */
const yamlNoise = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '&a ',
        '*a',
        '!!binary ',
        '!!str ',
        '<<: ',
        '- ',
        ': ',
        '? ',
        '{',
        '}',
        '[',
        ']',
        ',',
        '\n',
        '  ',
        '\t',
        '"',
        "'",
        '|',
        '>',
        '#',
        '---\n',
        '...\n',
        '%YAML 1.2\n',
        'clusters',
        'users',
        'server',
        'token',
      ),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 60 },
  )
  .map(parts => parts.join(''));

const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  yamlOfAnything,
  kubeconfigish,
  yamlNoise,
);

describe('the kubeconfig reader on random YAML', () => {
  it('never throws: it accepts, or refuses with field errors under kubeconfig', () => {
    // fc.assert throws with the shrunk counterexample when the property fails
    expect(() =>
      fc.assert(
        fc.property(anyText, text => {
          const result = inspectKubeconfig(text);
          if (result.ok) return /^https:\/\/./.test(result.server);
          return (
            result.errors.length > 0 &&
            result.errors.every(
              e => /^kubeconfig/.test(e.field) && e.message.length > 0,
            )
          );
        }),
        { numRuns: 2000 },
      ),
    ).not.toThrow();
  });

  it('the request validator never throws on any JSON body', () => {
    expect(() =>
      fc.assert(
        fc.property(
          fc.oneof(
            fc.anything({ maxDepth: 3 }),
            fc.record(
              {
                name: fc.oneof(fc.string(), fc.anything({ maxDepth: 1 })),
                kubeconfig: fc.oneof(anyText, fc.anything({ maxDepth: 1 })),
                inCluster: fc.anything({ maxDepth: 1 }),
                server: fc.oneof(fc.webUrl(), fc.string()),
                template: fc.anything({ maxDepth: 2 }),
                provision: fc.anything({ maxDepth: 3 }),
              },
              { requiredKeys: [] },
            ),
          ),
          body => {
            const result = validateRegisterClusterRequest(body);
            return (
              !('errors' in result) ||
              (result.errors.length > 0 &&
                result.errors.every(e => e.field !== '' && e.message !== ''))
            );
          },
        ),
        { numRuns: 1000 },
      ),
    ).not.toThrow();
  });
});
