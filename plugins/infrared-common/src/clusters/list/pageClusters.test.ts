import type { ClusterView } from '../../api/views';
import {
  ContinueTokenError,
  KeptClusterPages,
  pageClusters,
} from './pageClusters';
import { readClusterListParams } from './listQuery';

const cluster = (
  name: string,
  extra: Partial<ClusterView> = {},
): ClusterView => ({
  name,
  type: 'workload',
  connection: 'kubeconfig',
  conditions: [],
  createdAt: '2026-12-01T00:00:00Z',
  ...extra,
});

const names = (list: ClusterView[]) => list.map(c => c.name);

/** Every page of a query, following `continue`, with `between` run before each next page. */
function walk(
  source: () => ClusterView[],
  query: Parameters<typeof pageClusters>[1],
  between: (page: number) => void = () => {},
) {
  const seen: string[] = [];
  let token: string | undefined;
  for (let page = 0; page < 100; page++) {
    const answer = pageClusters(source(), { ...query, continue: token });
    seen.push(...names(answer.items));
    token = answer.continue;
    if (!token) return seen;
    between(page);
  }
  throw new Error('no last page');
}

describe('pageClusters', () => {
  const ten = Array.from({ length: 10 }, (_, i) => cluster(`c${i}`));

  it('answers the whole list without limit, with its total', () => {
    expect(pageClusters(ten, {})).toEqual({ items: ten, total: 10 });
  });

  it('pages by limit, each cluster once, in order', () => {
    const first = pageClusters(ten, { limit: 4 });
    expect(names(first.items)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(first.total).toBe(10);
    expect(first.continue).toEqual(expect.any(String));
    expect(walk(() => ten, { limit: 4 })).toEqual(names(ten));
    expect(pageClusters(ten, { limit: 10 }).continue).toBeUndefined();
  });

  it('neither skips nor repeats a cluster present throughout when others come and go between pages', () => {
    let list = [...ten];
    const seen = walk(
      () => list,
      { limit: 3 },
      page => {
        // remove one already answered and one still to come; add one before and one after
        if (page === 0)
          list = list.filter(c => c.name !== 'c1' && c.name !== 'c7');
        if (page === 1) list = [cluster('a-new'), ...list, cluster('z-new')];
      },
    );
    const throughout = names(ten).filter(n => n !== 'c7');
    for (const name of throughout) {
      expect(seen.filter(n => n === name)).toHaveLength(1);
    }
    expect(seen).not.toContain('c7');
    expect(seen).toContain('z-new'); // after the position reached
    expect(seen).not.toContain('a-new'); // before it
  });

  it('answers a list changed in place what it holds now', () => {
    const list = [cluster('b')];
    expect(names(pageClusters(list, {}).items)).toEqual(['b']);
    list.push(cluster('a'));
    expect(names(pageClusters(list, {}).items)).toEqual(['a', 'b']);
  });

  it('keeps the sorted pages of a list that is not changed, and answers each list what it holds', () => {
    const kept = new KeptClusterPages();
    const other = [cluster('c1'), cluster('x')];
    expect(names(kept.page(ten, { limit: 2 }).items)).toEqual(['c0', 'c1']);
    expect(names(kept.page(other, { limit: 2 }).items)).toEqual(['c1', 'x']);
    expect(names(kept.page(ten, { search: 'c9' }).items)).toEqual(['c9']);
    expect(kept.page(other, { search: 'c9' }).total).toBe(0);
    const walked: string[] = [];
    let token: string | undefined;
    do {
      const answer = kept.page(ten, {
        limit: 3,
        order: 'desc',
        continue: token,
      });
      walked.push(...names(answer.items));
      token = answer.continue;
    } while (token);
    expect(walked).toEqual(names(ten).reverse());
  });

  it('sorts by a column, missing values last either way, ties by name, and pages the same order', () => {
    const list = [
      cluster('b', { nodes: 3 }),
      cluster('a', { nodes: 3 }),
      cluster('c'),
      cluster('d', { nodes: 1 }),
    ];
    const asc = pageClusters(list, { sort: 'nodes' });
    expect(names(asc.items)).toEqual(['d', 'a', 'b', 'c']);
    const desc = pageClusters(list, { sort: 'nodes', order: 'desc' });
    expect(names(desc.items)).toEqual(['a', 'b', 'd', 'c']);
    expect(
      walk(() => list, { sort: 'nodes', order: 'desc', limit: 1 }),
    ).toEqual(names(desc.items));
  });

  it('filters by words, status and names before paging, and counts what matched', () => {
    const list = [
      cluster('edge-1', { region: 'eu-west-1' }),
      cluster('edge-2', {
        region: 'us-east-1',
        conditions: [
          {
            type: 'Connected',
            status: 'True',
            reason: 'Connected',
            message: '',
            lastTransitionTime: '',
          },
        ],
      }),
      cluster('core', { region: 'eu-west-1' }),
    ];
    expect(names(pageClusters(list, { search: 'EU edge' }).items)).toEqual([
      'edge-1',
    ]);
    expect(names(pageClusters(list, { status: 'connected' }).items)).toEqual([
      'edge-2',
    ]);
    const allowed = pageClusters(list, {
      names: new Set(['core', 'edge-2']),
      limit: 1,
    });
    expect(names(allowed.items)).toEqual(['core']);
    expect(allowed.total).toBe(2);
  });

  it('refuses a token of other filters, or one it did not make', () => {
    const { continue: token } = pageClusters(ten, { limit: 2 });
    expect(() =>
      pageClusters(ten, { limit: 2, search: 'c', continue: token }),
    ).toThrow(ContinueTokenError);
    expect(() =>
      pageClusters(ten, { limit: 2, continue: 'bm90IGpzb24' }),
    ).toThrow(/not a continue token/);
  });
});

describe('readClusterListParams', () => {
  it('reads every parameter, the limit as a number', () => {
    expect(
      readClusterListParams({
        limit: '100',
        continue: 'abc',
        search: 'edge eu',
        status: 'not-registered',
        org: 'acme',
        sort: 'nodes',
        order: 'desc',
      }),
    ).toEqual({
      params: {
        limit: 100,
        continue: 'abc',
        search: 'edge eu',
        status: 'not-registered',
        org: 'acme',
        sort: 'nodes',
        order: 'desc',
      },
    });
  });

  it.each([
    [{ limit: '0' }, 'limit', /1 to 1000/],
    [{ limit: '1001' }, 'limit', /1 to 1000/],
    [{ limit: 'ten' }, 'limit', /whole number/],
    [{ status: 'green' }, 'status', /one of all, connected/],
    [{ sort: 'secret' }, 'sort', /one of name/],
    [{ order: 'up' }, 'order', /asc, desc/],
    [{ org: 'Not An Org' }, 'org', /org/],
    [{ search: 'x'.repeat(201) }, 'search', /200 characters/],
    [{ limit: ['1', '2'] }, 'limit', /once/],
    [{ token: 'x' }, 'token', /not a parameter/],
  ])('refuses %j naming %s', (query, field, message) => {
    const read = readClusterListParams(query);
    expect(read).toEqual({
      errors: [{ field, message: expect.stringMatching(message) }],
    });
  });
});
