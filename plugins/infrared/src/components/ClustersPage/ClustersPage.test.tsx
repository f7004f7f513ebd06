import {
  act,
  fireEvent,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import {
  condition,
  discovered,
  management,
  registered,
  unreachable,
} from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

/** The requests for clusters (the page also reads orgs and zones once for the placement columns). */
const clusterRequests = () =>
  state.requests.filter(r => r.path.startsWith('/v1/clusters'));

const row = (name: string) => screen.getByTestId(`cluster-row-${name}`);
const filter = (text: string) =>
  fireEvent.change(screen.getByLabelText('Filter clusters'), {
    target: { value: text },
  });
/** Lets the page poll for `ms`, inside act: its refreshes update the page meanwhile. */
const pollFor = (ms: number) =>
  act(() => new Promise<void>(r => setTimeout(r, ms)));
const rowNames = () =>
  screen
    .queryAllByTestId(/^cluster-row-/)
    .map(r => r.getAttribute('data-testid')!.replace('cluster-row-', ''));

describe('ClustersPage table', () => {
  it('shows every cluster with its statuses, Argo CD server, gitops path and discovered marker', async () => {
    state.clusters = [
      management,
      registered('edge-1'),
      unreachable,
      discovered,
    ];
    renderPage();

    expect(
      screen.getByRole('heading', { level: 1, name: 'Clusters' }),
    ).toBeInTheDocument();
    await screen.findByTestId('cluster-row-edge-1');
    expect(rowNames()).toEqual([
      'child-a',
      'edge-1',
      'edge-down',
      'infrared-mgmt',
    ]);

    const edge = within(row('edge-1'));
    expect(
      edge.getByLabelText('Connected: True (Connected)'),
    ).toBeInTheDocument();
    expect(
      edge.getByLabelText('Registered: True (Merged)'),
    ).toBeInTheDocument();
    expect(edge.getByText('k3s / aws / us-east-1')).toBeInTheDocument();
    expect(edge.getByText('v1.31.2')).toBeInTheDocument();
    expect(edge.getByText('https://203.0.113.10:6443')).toBeInTheDocument();
    const link = edge.getByRole('link', {
      name: 'registry/clusters/infrared-mgmt/components/cluster-edge-1.yaml',
    });
    expect(link).toHaveAttribute(
      'href',
      'https://github.com/acme/gitops/pull/7',
    );
    expect(edge.getAllByText('since 2 hours ago')).toHaveLength(2);

    const down = within(row('edge-down'));
    expect(
      down.getByLabelText('Connected: False (Unreachable)'),
    ).toBeInTheDocument();
    expect(down.getByText('Unreachable')).toBeInTheDocument();
    expect(
      down.getByLabelText('Registered: Unknown (WaitingForConnected)'),
    ).toBeInTheDocument();

    const child = within(row('child-a'));
    expect(child.getByText('discovered')).toBeInTheDocument();
    expect(child.getByText(/from namespace team-a/)).toBeInTheDocument();
    expect(within(row('edge-1')).queryByText('discovered')).toBeNull();

    expect(
      screen.getByRole('columnheader', { name: 'Zones placed' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('columnheader', { name: 'Orgs allowed' }),
    ).toBeInTheDocument();
    expect(clusterRequests()).toEqual([
      { method: 'GET', path: '/v1/clusters' },
    ]);
    expect(state.listQueries).toEqual([{ limit: '100' }]);
  });

  it('shows the condition message on hover', async () => {
    state.clusters = [unreachable];
    renderPage();
    const chip = await screen.findByLabelText('Connected: False (Unreachable)');
    await userEvent.hover(chip);
    expect(
      await screen.findByText(
        'dial tcp 203.0.113.99:6443: connect: connection refused',
      ),
    ).toBeInTheDocument();
  });

  it('filters by text and by status, and sorts by a column, as the backend answers', async () => {
    state.clusters = [
      management,
      registered('edge-1', { region: 'eu-west-1' }),
      registered('edge-2', {
        conditions: [
          condition('Connected', 'True', 'Connected'),
          condition('Registered', 'False', 'PublishFailed', 'push refused'),
        ],
      }),
      unreachable,
      discovered,
    ];
    renderPage();
    await screen.findByTestId('cluster-row-edge-1');
    const shows = (names: string[]) =>
      waitFor(() => expect(rowNames()).toEqual(names));

    filter('eu-west');
    await shows(['edge-1']);
    expect(screen.getByTestId('cluster-count')).toHaveTextContent(
      '1 of 5 clusters',
    );

    filter('publishfailed');
    await shows(['edge-2']);
    filter('');

    const pick = async (label: string) => {
      await userEvent.click(screen.getByLabelText('Status filter'));
      await userEvent.click(await screen.findByRole('option', { name: label }));
    };
    await pick('Not registered');
    await shows(['edge-2', 'edge-down']);
    await pick('Not connected');
    await shows(['edge-down']);
    await pick('Connected');
    await shows(['child-a', 'edge-1', 'edge-2', 'infrared-mgmt']);
    await pick('Discovered');
    await shows(['child-a']);

    filter('nothing-like-this');
    expect(
      await screen.findByText(/No cluster matches the filter/),
    ).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('button', { name: 'Clear filters' }),
    );
    await waitFor(() => expect(rowNames()).toHaveLength(5));

    await userEvent.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(rowNames()[0]).toBe('infrared-mgmt'));
    await userEvent.click(screen.getByRole('button', { name: 'Connected' }));
    await waitFor(() => expect(rowNames()[0]).toBe('edge-down'));
  });

  it('refreshes on its own while a cluster is in progress, and stops once all are registered', async () => {
    const registering = registered('edge-new', {
      conditions: [condition('Connected', 'True', 'Connected')],
    });
    state.clusters = [management, registering];
    renderPage({ pollIntervalMs: 50 });
    await screen.findByLabelText('Registered: Pending');
    expect(
      screen.getByText(/1 in progress: refreshing every/),
    ).toBeInTheDocument();

    state.clusters = [management, registered('edge-new')];
    await waitFor(() =>
      expect(
        within(row('edge-new')).getByLabelText('Registered: True (Merged)'),
      ).toBeInTheDocument(),
    );
    expect(clusterRequests().length).toBeGreaterThan(1);
    const lists = clusterRequests().length;
    await pollFor(300);
    expect(clusterRequests().length).toBe(lists);
    expect(screen.queryByText(/in progress: refreshing/)).toBeNull();
  });

  it('waits longer between refreshes while nothing changes', async () => {
    state.clusters = [management, unreachable];
    renderPage({ pollIntervalMs: 40 });
    await screen.findByTestId('cluster-row-edge-down');
    await pollFor(700);
    // Every 40 ms would be ~17 requests; doubling waits (40, 80, 160, 320) make at most 6.
    expect(clusterRequests().length).toBeGreaterThanOrEqual(2);
    expect(clusterRequests().length).toBeLessThanOrEqual(6);
  });

  it('does not poll when every cluster is registered', async () => {
    state.clusters = [management, registered('edge-1')];
    renderPage({ pollIntervalMs: 20 });
    await screen.findByTestId('cluster-row-edge-1');
    await pollFor(200);
    expect(clusterRequests()).toHaveLength(1);
  });

  it('says what to do when there is no cluster', async () => {
    renderPage();
    expect(await screen.findByText('No clusters yet')).toBeInTheDocument();
    expect(screen.getByText(/check the backend's logs/)).toBeInTheDocument();
  });

  it('says what went wrong and what to do when the list fails, and retries', async () => {
    state.listFailure = {
      status: 503,
      message: 'management cluster unreachable',
    };
    renderPage();
    expect(
      await screen.findByText(/Could not load clusters/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/management cluster unreachable/),
    ).toBeInTheDocument();
    expect(screen.getByText(/wait a moment and retry/)).toBeInTheDocument();

    state.listFailure = undefined;
    state.clusters = [management];
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rowNames()).toEqual(['infrared-mgmt']));
  });
});
