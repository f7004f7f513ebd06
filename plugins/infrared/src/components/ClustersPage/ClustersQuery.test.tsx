import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management, registered } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(60_000);

const { state } = setUpFakeApi();

const fleet = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    registered(`c-${String(i).padStart(4, '0')}`, { nodes: 1 + (i % 7) }),
  );
const rowNames = () =>
  screen
    .queryAllByTestId(/^cluster-row-/)
    .map(r => r.getAttribute('data-testid')!.replace('cluster-row-', ''));
/** The table's scroll box (the rows are virtualized inside it). */
const scrollBox = () =>
  screen.getByRole('table', { name: 'Clusters' }).parentElement!;
/** Scrolls the table's box to `top` px, as a user's wheel would. */
const scrollTo = (top: number) =>
  act(() => {
    Object.defineProperty(scrollBox(), 'scrollTop', {
      value: top,
      configurable: true,
      writable: true,
    });
    fireEvent.scroll(scrollBox());
  });
/** The list requests' queries other than the unfiltered count (`limit=1`). */
const pageQueries = () => state.listQueries.filter(q => q.limit !== '1');

describe('the Clusters page asks the backend for search, filters, sort and pages', () => {
  it('sends the search once the user pauses, and a header click sorts on the backend', async () => {
    state.clusters = fleet(300);
    renderPage();
    await screen.findByTestId('cluster-row-c-0000');
    expect(state.listQueries).toEqual([{ limit: '100' }]);
    expect(screen.getByTestId('cluster-count')).toHaveTextContent(
      '300 clusters',
    );

    await userEvent.type(screen.getByLabelText('Filter clusters'), 'c-0299');
    await waitFor(() => expect(rowNames()).toEqual(['c-0299']));
    // one request for the whole text (debounced), not one a keystroke
    expect(pageQueries().slice(1)).toEqual([
      { limit: '100', search: 'c-0299' },
    ]);
    expect(screen.getByTestId('cluster-count')).toHaveTextContent(
      '1 of 300 clusters',
    );

    await userEvent.clear(screen.getByLabelText('Filter clusters'));
    await waitFor(() => expect(rowNames()[0]).toBe('c-0000'));
    await userEvent.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(rowNames()[0]).toBe('c-0299'));
    expect(pageQueries().at(-1)).toEqual({ limit: '100', order: 'desc' });
    await userEvent.click(screen.getByRole('button', { name: 'Nodes' }));
    await waitFor(() =>
      expect(pageQueries().at(-1)).toEqual({ limit: '100', sort: 'nodes' }),
    );
  });

  it('restores search, filter and sort from the URL, and keeps them when a panel opens', async () => {
    state.clusters = [management, ...fleet(300)];
    renderPage({
      at: '/clusters?search=c-02&status=connected&sort=nodes&order=desc',
    });
    await screen.findByTestId('cluster-row-c-0202');
    expect(pageQueries()[0]).toEqual({
      limit: '100',
      search: 'c-02',
      status: 'connected',
      sort: 'nodes',
      order: 'desc',
    });
    expect(screen.getByLabelText('Filter clusters')).toHaveValue('c-02');
    expect(screen.getByRole('columnheader', { name: /Nodes/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(screen.getByTestId('cluster-count')).toHaveTextContent(
      '100 of 301 clusters',
    );

    await userEvent.click(
      screen.getByRole('button', { name: 'Open cluster c-0202' }),
    );
    await screen.findByRole('region', { name: 'Cluster c-0202' });
    expect(screen.getByLabelText('Filter clusters')).toHaveValue('c-02');
    expect(pageQueries().every(q => q.search === 'c-02')).toBe(true);
  });

  it('limits the list to an org allowlist picked in the toolbar', async () => {
    state.clusters = fleet(20);
    state.orgs = [
      { name: 'acme', clusterAllowlist: ['c-0003', 'c-0011'] } as any,
    ];
    renderPage();
    await screen.findByTestId('cluster-row-c-0000');
    await userEvent.click(await screen.findByLabelText('Org filter'));
    await userEvent.click(await screen.findByRole('option', { name: 'acme' }));
    await waitFor(() => expect(rowNames()).toEqual(['c-0003', 'c-0011']));
    expect(pageQueries().at(-1)).toEqual({ limit: '100', org: 'acme' });
  });

  it('renders a bounded number of rows of 10,000, and scrolling loads the next page', async () => {
    state.clusters = fleet(10_000);
    renderPage();
    await screen.findByTestId('cluster-row-c-0000');
    expect(screen.getByTestId('cluster-count')).toHaveTextContent(
      '10000 clusters',
    );
    expect(screen.getByTestId('cluster-loaded')).toHaveTextContent(
      '100 of 10000 loaded',
    );
    const first = rowNames().length;
    expect(first).toBeGreaterThan(10);
    expect(first).toBeLessThan(40);

    await scrollTo(100 * 53);
    await waitFor(() =>
      expect(screen.getByTestId('cluster-loaded')).toHaveTextContent(
        '200 of 10000 loaded',
      ),
    );
    expect(pageQueries()[1]).toEqual({
      limit: '100',
      continue: expect.any(String),
    });
    expect(rowNames()).toContain('c-0099');
    expect(rowNames()).not.toContain('c-0000');
    expect(rowNames().length).toBeLessThan(40);

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() =>
      expect(screen.getByTestId('cluster-loaded')).toHaveTextContent(
        '300 of 10000 loaded',
      ),
    );
    await scrollTo(300 * 53);
    await waitFor(() => expect(rowNames()).toContain('c-0299'));
    expect(rowNames().length).toBeLessThan(40);
  });

  it('reaches the last cluster', async () => {
    state.clusters = fleet(250);
    renderPage();
    await screen.findByTestId('cluster-row-c-0000');
    for (const loaded of ['200 of 250', 'All 250']) {
      await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
      await waitFor(() =>
        expect(screen.getByTestId('cluster-loaded')).toHaveTextContent(loaded),
      );
    }
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    await scrollTo(250 * 53);
    await waitFor(() => expect(rowNames()).toContain('c-0249'));
  });

  it("opens a linked cluster's panel when it is not among the loaded rows", async () => {
    state.clusters = fleet(1000);
    renderPage({ at: '/clusters/c-0900' });
    expect(
      await screen.findByRole('region', { name: 'Cluster c-0900' }),
    ).toBeInTheDocument();
    expect(rowNames()).not.toContain('c-0900');
    expect(state.requests).toContainEqual({
      method: 'GET',
      path: '/v1/clusters/c-0900',
    });
  });

  it('names an allowlist entry of a gone cluster when not every cluster is loaded', async () => {
    state.clusters = fleet(300);
    state.orgs = [
      { name: 'acme', clusterAllowlist: ['c-0250', 'c-gone'] } as any,
    ];
    renderPage();
    const alert = await screen.findByRole('alert', {
      name: 'Allowlists naming clusters that are gone',
    });
    expect(alert).toHaveTextContent('org acme: c-gone (gone)');
    expect(alert).not.toHaveTextContent('c-0250');
  });
});
