import {
  durationMs,
  parseGoDuration,
  parseProviderSpec,
  PROVIDER_PRESETS,
  RegistrarConfigError,
  resolveRegistrarOptions,
  type ProviderInput,
  type RegistrarInput,
} from './options';

describe('resolveRegistrarOptions', () => {
  it('defaults as upstream', () => {
    const { options, warnings } = resolveRegistrarOptions();
    expect(options).toEqual({
      targetNamespace: 'argocd',
      labelPrefix: 'argocd-cluster-registrar/',
      managedBy: 'cluster-registrar',
      providers: [PROVIDER_PRESETS.k3k],
      intervalMs: 60_000,
      demotedTtlMs: 0,
      execCredentials: false,
      dryRun: false,
    });
    expect(warnings).toEqual([]);
    expect(
      resolveRegistrarOptions({ providers: [] }).options.providers,
    ).toEqual([PROVIDER_PRESETS.k3k]);
  });

  it('takes presets, custom providers and CLI specs', () => {
    const { options } = resolveRegistrarOptions({
      providers: [
        'vcluster',
        { name: 'capa-eks' },
        {
          name: 'mine',
          secretNamePattern: 'kc-*',
          keys: ['a', 'b'],
          allowExec: true,
        },
        'spec=x-*=k1,k2=exec',
      ],
    });
    expect(
      options.providers.map(p => [
        p.name,
        p.secretNamePattern,
        p.keys,
        p.allowExec,
      ]),
    ).toEqual([
      ['vcluster', 'vc-*', ['config'], false],
      ['capa-eks', '*-user-kubeconfig', ['value'], true],
      ['mine', 'kc-*', ['a', 'b'], true],
      ['spec', 'x-*', ['k1', 'k2'], true],
    ]);
    expect(PROVIDER_PRESETS.capi.secretType).toBe('cluster.x-k8s.io/secret');
  });

  it.each<[string, RegistrarInput, string]>([
    [
      'empty prefix',
      { labelPrefix: '' },
      'infrared.registrar.labelPrefix: must not be empty',
    ],
    [
      'prefix without slash',
      { labelPrefix: 'example.com' },
      'infrared.registrar.labelPrefix: "example.com" must end in \'/\'',
    ],
    [
      'prefix inside Argo CD',
      { labelPrefix: 'argocd.argoproj.io/' },
      'infrared.registrar.labelPrefix: "argocd.argoproj.io/" is inside argocd.argoproj.io/',
    ],
    [
      'prefix under Argo CD',
      { labelPrefix: 'x.argocd.argoproj.io/' },
      'infrared.registrar.labelPrefix',
    ],
    [
      'prefix that is no label key',
      { labelPrefix: 'Bad_Prefix/' },
      'infrared.registrar.labelPrefix: "Bad_Prefix/" does not yield a valid label key',
    ],
    [
      'bad glob',
      { providers: [{ name: 'x', secretNamePattern: 'kc-[', keys: ['a'] }] },
      'infrared.registrar.providers[0].secretNamePattern: provider "x": "kc-[" is not a valid glob',
    ],
    [
      'empty glob',
      { providers: [{ name: 'x', secretNamePattern: '', keys: ['a'] }] },
      'infrared.registrar.providers[0]',
    ],
    [
      'duplicate providers',
      { providers: ['k3k', 'k3k'] },
      'infrared.registrar.providers[1].name: duplicate provider name "k3k"',
    ],
    [
      'duplicate keys',
      { providers: [{ name: 'x', secretNamePattern: 'a', keys: ['k', 'k'] }] },
      'infrared.registrar.providers[0].keys: provider "x": duplicate secret key "k"',
    ],
    [
      'no keys',
      { providers: [{ name: 'x', secretNamePattern: 'a', keys: [] }] },
      'infrared.registrar.providers[0]',
    ],
    [
      'a bad key',
      { providers: [{ name: 'x', secretNamePattern: 'a', keys: ['a b'] }] },
      'infrared.registrar.providers[0].keys',
    ],
    [
      'an unknown preset',
      { providers: ['k8s'] },
      'infrared.registrar.providers[0]: unknown provider "k8s"',
    ],
    [
      'a provider name no label value',
      {
        providers: [
          { name: 'not valid!', secretNamePattern: 'a', keys: ['k'] },
        ],
      },
      'infrared.registrar.providers[0].name',
    ],
    [
      'a malformed spec',
      { providers: ['a=b'] },
      'infrared.registrar.providers[0]: malformed provider spec',
    ],
    [
      'an unknown key',
      { managed_by: 'x' } as RegistrarInput,
      'infrared.registrar.managed_by: unknown key; expected one of infrared.registrar.targetNamespace',
    ],
    [
      'an unknown provider key',
      {
        providers: [
          { name: 'x', secretNamePattern: 'a', key: 'k' } as ProviderInput,
        ],
      },
      'infrared.registrar.providers[0].key: unknown key; a provider takes name, secretNamePattern, keys, allowExec, secretType',
    ],
    [
      'provider keys that are no list',
      { providers: [{ name: 'x', secretNamePattern: 'a', keys: 'k' as any }] },
      'infrared.registrar.providers[0].keys: must be a list of strings',
    ],
    [
      'the deprecated pattern with providers',
      { secretKey: 'k', providers: ['k3k'] },
      'infrared.registrar.secretKey: infrared.registrar.secretKey cannot be combined with infrared.registrar.providers; express them as a provider instead: custom=k3k-*-kubeconfig=k',
    ],
    [
      'zero interval',
      { interval: '0s' },
      'infrared.registrar.interval: must be greater than 0',
    ],
    [
      'negative interval',
      { interval: -5 },
      'infrared.registrar.interval: must be greater than 0',
    ],
    [
      'bad interval',
      { interval: 'soon' },
      'infrared.registrar.interval: "soon" is not a duration',
    ],
    [
      'negative TTL',
      { demotedTtl: '-1h' },
      'infrared.registrar.demotedTtl: must not be negative',
    ],
    [
      'empty target namespace',
      { targetNamespace: '' },
      'infrared.registrar.targetNamespace: must not be empty',
    ],
    [
      'empty managed-by',
      { managedBy: '' },
      'infrared.registrar.managedBy: must not be empty',
    ],
    ['bad managed-by', { managedBy: 'a b' }, 'infrared.registrar.managedBy'],
    [
      'non-boolean dry-run',
      { dryRun: 'yes' as any },
      'infrared.registrar.dryRun',
    ],
  ])('stops on %s, naming the key', (_, input, message) => {
    let error: unknown;
    try {
      resolveRegistrarOptions(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RegistrarConfigError);
    expect((error as Error).message).toContain(message);
  });

  it('names flags for the CLI', () => {
    expect(() =>
      resolveRegistrarOptions({ labelPrefix: 'x' }, { keyName: k => `--${k}` }),
    ).toThrow('--labelPrefix: "x" must end in \'/\'');
  });

  it("warns when an earlier provider claims a later one's Secrets (capi before capa-eks)", () => {
    expect(
      resolveRegistrarOptions({ providers: ['capi', 'capa-eks'] }).warnings,
    ).toEqual([
      expect.stringContaining('provider "capi" is declared before "capa-eks"'),
    ]);
    expect(
      resolveRegistrarOptions({ providers: ['capa-eks', 'capi'] }).warnings,
    ).toEqual([]);
    expect(
      resolveRegistrarOptions({ providers: ['capi', 'capz-aks'] }).warnings,
    ).toEqual([]);
    expect(
      resolveRegistrarOptions({ providers: ['capi', 'k3k'] }).warnings,
    ).toEqual([]);
  });
});

describe('durations', () => {
  it.each([
    ['60s', 60_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['250ms', 250],
    ['0', 0],
    ['-1s', -1000],
    ['PT1M', 60_000],
    ['P1D', 86_400_000],
    ['-PT1M', -60_000],
    ['P1Y2M3W4DT5H6M7.5S', 38_898_367_500],
  ])('reads %s', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it('reads seconds and objects', () => {
    expect(durationMs(90)).toBe(90_000);
    expect(durationMs({ minutes: 1, seconds: 5 })).toBe(65_000);
  });

  it.each(['', '5', '1x', 's', '1h 30m', 'P', 'PT', 'P1DT', 'pt1m'])(
    'refuses %j',
    text => {
      expect(() => durationMs(text)).toThrow();
    },
  );

  it('refuses an object with a field that is not a unit', () => {
    expect(() => durationMs({ fortnights: 1 } as any)).toThrow();
  });

  it('parses Go durations only', () => {
    expect(parseGoDuration('2h45m30.5s')).toBe(9_930_500);
    expect(parseGoDuration('10')).toBeUndefined();
  });
});

describe('parseProviderSpec', () => {
  it('reads presets and name=glob=keys[=exec]', () => {
    expect(parseProviderSpec('k3k')).toBe('k3k');
    expect(parseProviderSpec('mine=k-*=a, b')).toEqual({
      name: 'mine',
      secretNamePattern: 'k-*',
      keys: ['a', 'b'],
      allowExec: false,
    });
    expect(parseProviderSpec('mine=k-*=a=exec')).toMatchObject({
      allowExec: true,
    });
    expect(() => parseProviderSpec('a=b=c=d')).toThrow(
      'the fourth field may only be "exec"',
    );
    expect(() => parseProviderSpec('')).toThrow('empty provider spec');
  });
});
