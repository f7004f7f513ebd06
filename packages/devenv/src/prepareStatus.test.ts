import {
  PrepareItem,
  applyBuildLine,
  progressOf,
  statusFile,
} from './prepareStatus';

const T0 = Date.parse('2026-12-02T00:00:00Z');
const item = (over: Partial<PrepareItem> = {}): PrepareItem => ({
  name: 'tofu',
  title: 'OpenTofu',
  state: 'waiting',
  typicalSeconds: 600,
  ...over,
});

describe('applyBuildLine: what the build scripts print', () => {
  it.each([
    [
      'the package count starts the compilation',
      'devenv-progress: packages 400',
      {
        state: 'building',
        packagesTotal: 400,
        packagesDone: 0,
        buildStartedAt: T0,
      },
    ],
    [
      'a package outside the standard library counts',
      'github.com/hashicorp/hcl/v2/hclsyntax',
      { packagesDone: 11 },
    ],
    ['so does a vanity path', 'k8s.io/client-go/rest', { packagesDone: 11 }],
    ['a standard library package does not', 'net/http', { packagesDone: 10 }],
    [
      "Go's download lines do not",
      'go: downloading github.com/zclconf/go-cty v1.16.2',
      { packagesDone: 10 },
    ],
    [
      'a message does not',
      'devenv: building tofu v1.10.10 (a few minutes cold)',
      { packagesDone: 10 },
    ],
  ])('%s', (_what, line, expected) => {
    const building = item({
      state: 'building',
      packagesTotal: 400,
      packagesDone: 10,
    });
    expect(
      applyBuildLine(
        line.startsWith('devenv-progress')
          ? item({ state: 'downloading' })
          : building,
        line,
        T0,
      ),
    ).toMatchObject(expected);
  });

  it('gives whole seconds while downloading', () => {
    const downloading = item({ state: 'downloading', startedAt: T0 });
    expect(progressOf(downloading, T0 + 1234).secondsLeft).toBe(599);
  });

  it('counts no package before the count is known (the download)', () => {
    const downloading = item({ state: 'downloading', startedAt: T0 });
    expect(applyBuildLine(downloading, 'github.com/a/b', T0)).toBe(downloading);
  });
});

describe('progressOf: percent and seconds left', () => {
  it.each<
    [
      string,
      Partial<PrepareItem>,
      number,
      { percent: number; secondsLeft: number },
    ]
  >([
    [
      'waiting: nothing done, the typical time left',
      { state: 'waiting' },
      0,
      { percent: 0, secondsLeft: 600 },
    ],
    ['ready', { state: 'ready' }, 0, { percent: 100, secondsLeft: 0 }],
    [
      'downloading at the start',
      { state: 'downloading', startedAt: T0 },
      0,
      { percent: 0, secondsLeft: 600 },
    ],
    [
      'downloading for 30 s of the typical 60',
      { state: 'downloading', startedAt: T0 },
      30_000,
      { percent: 5, secondsLeft: 570 },
    ],
    [
      'a slow download never claims less than the compilation left',
      { state: 'downloading', startedAt: T0 },
      500_000,
      { percent: 9, secondsLeft: 540 },
    ],
    [
      'compiling, none done: the typical compile time',
      {
        state: 'building',
        buildStartedAt: T0,
        packagesTotal: 100,
        packagesDone: 0,
      },
      0,
      { percent: 10, secondsLeft: 540 },
    ],
    [
      'half done after 100 s: its own pace (100 s more)',
      {
        state: 'building',
        buildStartedAt: T0,
        packagesTotal: 100,
        packagesDone: 50,
      },
      100_000,
      { percent: 55, secondsLeft: 100 },
    ],
    [
      'a tenth done after 60 s: a third pace (540 s), the rest typical (486 s)',
      {
        state: 'building',
        buildStartedAt: T0,
        packagesTotal: 100,
        packagesDone: 10,
      },
      60_000,
      { percent: 19, secondsLeft: 504 },
    ],
    [
      'all packages compiled, linking: never under 10 s',
      {
        state: 'building',
        buildStartedAt: T0,
        packagesTotal: 100,
        packagesDone: 100,
      },
      300_000,
      { percent: 99, secondsLeft: 10 },
    ],
  ])('%s', (_what, over, at, expected) => {
    expect(progressOf(item(over), T0 + at)).toEqual(expected);
  });
});

describe('statusFile', () => {
  it('adds the seconds of the items before one that is not done (they build in turn)', () => {
    const file = statusFile(
      [
        item({
          state: 'building',
          buildStartedAt: T0,
          packagesTotal: 100,
          packagesDone: 50,
        }),
        { ...item({ name: 'argocd', title: 'Argo CD', typicalSeconds: 1000 }) },
      ],
      T0 + 100_000,
      { pid: 7 },
    );
    expect(file.items.map(i => [i.name, i.percent, i.secondsLeft])).toEqual([
      ['tofu', 55, 100],
      ['argocd', 0, 1100],
    ]);
    expect(file).toMatchObject({
      pid: 7,
      updatedAt: '2026-12-02T00:01:40.000Z',
    });
  });

  it('a ready item adds nothing; a failed one is not waited for', () => {
    const file = statusFile(
      [
        item({ state: 'failed', error: 'exit 1' }),
        item({ name: 'argocd', state: 'ready' }),
      ],
      T0,
    );
    expect(file.items.map(i => [i.state, i.secondsLeft])).toEqual([
      ['failed', 0],
      ['ready', 0],
    ]);
  });
});
