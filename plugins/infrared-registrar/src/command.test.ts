import { flagName, main, parseRegistrarArgs, passLoop } from './command';
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
      version: false,
      kubeconfig: '/tmp/kc',
      leaderElect: false,
      leaderElectionId: 'acr-298abd0c1b7f17a6',
      healthProbeBindAddress: ':8081',
      metricsBindAddress: '0',
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
        name: 'custom',
        secretNamePattern: 'x-*',
        keys: ['kubeconfig.yaml'],
        allowExec: false,
      },
    ]);
    expect(warnings).toEqual([
      '--secret-name-pattern and --secret-key are deprecated; use --provider custom=x-*=kubeconfig.yaml',
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
    expect(code).toBe(1);
    expect(err.join('')).toContain('--label-prefix: "nope" must end in \'/\'');
    expect(flagName('providers[1].keys')).toBe('--provider #2 (keys)');
  });

  it("accepts every flag upstream's chart passes, as the chart renders them", () => {
    const args = parseRegistrarArgs([
      '--target-namespace=argocd',
      '--label-prefix=argocd-cluster-registrar/',
      '--managed-by=cluster-registrar',
      '--provider=k3k',
      '--interval=60s',
      '--demoted-ttl=0s',
      '--exec-credentials',
      '--leader-elect',
      '--leader-election-id=acr-991221237547448b',
      '--health-probe-bind-address=',
      '--metrics-bind-address=:8080',
      '--debug',
    ]);
    expect(args).toMatchObject({
      leaderElect: true,
      leaderElectionId: 'acr-991221237547448b',
      healthProbeBindAddress: '',
      metricsBindAddress: ':8080',
    });
  });

  it("derives upstream's Lease name, refuses an empty one, and turns leader election off with --dry-run", () => {
    expect(parseRegistrarArgs(['--leader-elect']).leaderElectionId).toBe(
      'acr-991221237547448b',
    );
    expect(() => parseRegistrarArgs(['--leader-election-id='])).toThrow(
      '--leader-election-id: must not be empty; omit it to derive one',
    );
    expect(parseRegistrarArgs(['--leader-elect', '--dry-run'])).toMatchObject({
      leaderElect: false,
      notices: ['--dry-run disables leader election'],
    });
  });

  it('lets a repeated single-value flag take its last value, as pflag does', () => {
    const args = parseRegistrarArgs([
      '-t',
      'first',
      '--target-namespace=second',
      '-tthird',
      '--interval',
      '10s',
      '--interval=20s',
      '--dry-run',
      '--dry-run=false',
    ]);
    expect(args.input).toMatchObject({
      targetNamespace: 'third',
      interval: '20s',
      dryRun: false,
    });
  });

  it('exits 1 on a bad flag, as upstream does, and 0 on --version', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => err.push(t),
    };
    expect(await main(['--bogus'], io)).toBe(1);
    expect(err.join('')).toContain('--bogus: unknown flag');
    expect(await main(['--interval'], io)).toBe(1);
    expect(await main(['--dry-run=maybe'], io)).toBe(1);
    expect(await main(['--version'], io)).toBe(0);
    expect(out.join('')).toMatch(
      /^infrared-registrar version \d+\.\d+\.\d+\n$/,
    );
  });
});

describe('the command under another name', () => {
  it('answers --help, --version and a bad flag as the name and version it is given', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => err.push(t),
      command: { name: 'argocd-cluster-registrar', version: '9.8.7' },
    };
    expect(await main(['--version'], io)).toBe(0);
    expect(await main(['--help'], io)).toBe(0);
    expect(out[0]).toBe('argocd-cluster-registrar version 9.8.7\n');
    expect(out[1].split('\n')[0]).toBe(
      'usage: argocd-cluster-registrar [--once] [--dry-run] [--debug] [flags]',
    );
    expect(await main(['--bogus'], io)).toBe(1);
    expect(err.join('')).toMatch(
      /^argocd-cluster-registrar: --bogus: unknown flag\nusage: argocd-cluster-registrar /,
    );
    expect(err.join('')).not.toContain('infrared-registrar');
  });
});

describe('passLoop', () => {
  it('ends when the signal aborts during a pass, without waiting out the interval', async () => {
    const controller = new AbortController();
    let passes = 0;
    await passLoop(3_600_000, controller.signal, async () => {
      passes++;
      controller.abort();
      return { errors: [], managedNamespaces: [] } as any;
    });
    expect(passes).toBe(1);
  });
});
