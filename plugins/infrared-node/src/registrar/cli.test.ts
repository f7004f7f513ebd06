import { flagName, main, parseRegistrarArgs } from './cli';
import { resolveRegistrarOptions } from './options';

describe('parseRegistrarArgs', () => {
  it('maps every flag onto an option', () => {
    const args = parseRegistrarArgs([
      '--once',
      '--dry-run',
      '--debug',
      '-t',
      'gitops',
      '--managed-by=me',
      '--label-prefix',
      'example.com/',
      '--provider',
      'k3k',
      '--provider=mine=kc-*=a,b=exec',
      '--interval',
      '30s',
      '--demoted-ttl=72h',
      '--exec-credentials',
      '--kubeconfig',
      '/tmp/kc',
    ]);
    expect(args).toEqual({
      once: true,
      debug: true,
      help: false,
      kubeconfig: '/tmp/kc',
      notices: [],
      input: {
        targetNamespace: 'gitops',
        managedBy: 'me',
        labelPrefix: 'example.com/',
        providers: [
          'k3k',
          {
            name: 'mine',
            secretNamePattern: 'kc-*',
            keys: ['a', 'b'],
            allowExec: true,
          },
        ],
        interval: '30s',
        demotedTtl: '72h',
        execCredentials: true,
        dryRun: true,
      },
    });
  });

  it('keeps the deprecated pattern/key flags as one provider, and refuses mixing them with --provider', async () => {
    const resolved = (argv: string[]) =>
      resolveRegistrarOptions(parseRegistrarArgs(argv).input, {
        keyName: flagName,
      });
    const { options, warnings } = resolved(['--secret-name-pattern', 'x-*']);
    expect(options.providers).toEqual([
      {
        name: 'legacy',
        secretNamePattern: 'x-*',
        keys: ['kubeconfig.yaml'],
        allowExec: false,
      },
    ]);
    expect(warnings).toEqual([
      '--secret-name-pattern and --secret-key are deprecated; use --provider legacy=x-*=kubeconfig.yaml',
    ]);
    expect(() => resolved(['--secret-key', 'k', '--provider', 'k3k'])).toThrow(
      'cannot be combined with --provider',
    );
  });

  it('refuses unknown flags and missing values', () => {
    expect(() => parseRegistrarArgs(['--nope'])).toThrow('unknown flag');
    expect(() => parseRegistrarArgs(['--interval'])).toThrow(
      '--interval: needs a value',
    );
    expect(() => parseRegistrarArgs(['--dry-run=maybe'])).toThrow(
      'not a boolean',
    );
  });

  it('names flags in configuration errors', async () => {
    const err: string[] = [];
    const code = await main(['--label-prefix', 'nope', '--once'], {
      stdout: () => {},
      stderr: s => err.push(s),
    });
    expect(code).toBe(2);
    expect(err.join('')).toContain('--label-prefix: "nope" must end in \'/\'');
    expect(flagName('providers[1].keys')).toBe('--provider #2 (keys)');
  });
});
