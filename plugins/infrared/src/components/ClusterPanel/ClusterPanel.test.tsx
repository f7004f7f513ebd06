import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management, registered } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';
import { mockViewportWidth } from '../../__testUtils__/viewport';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

async function openPanel(name: string) {
  await userEvent.click(
    await screen.findByRole('button', { name: `Open cluster ${name}` }),
  );
  return within(await screen.findByRole('region', { name: `Cluster ${name}` }));
}

/** The value of one fact of the panel (`<dt>term</dt><dd>value</dd>`). */
function fact(panel: ReturnType<typeof within>, term: string): HTMLElement {
  const dt = panel.getByText(term, { selector: 'dt *' }).closest('dt')!;
  return dt.nextElementSibling as HTMLElement;
}

const THREE_MINUTES_AGO = new Date(Date.now() - 3 * 60_000 - 5_000)
  .toISOString()
  .replace(/\.\d+Z$/, 'Z');

describe('Cluster panel', () => {
  it('shows times as relative times, with the exact time on hover', async () => {
    const edge = registered('edge-1', { createdAt: THREE_MINUTES_AGO });
    state.clusters = [management, edge];
    renderPage();
    const panel = await openPanel('edge-1');

    const created = within(fact(panel, 'Created')).getByText('3 minutes ago');
    expect(created.tagName).toBe('TIME');
    expect(created).toHaveAttribute('title', THREE_MINUTES_AGO);
    expect(created).toHaveAttribute('datetime', THREE_MINUTES_AGO);
    expect(fact(panel, 'Created')).toHaveTextContent(/^3 minutes ago$/);

    const transition = edge.conditions[0].lastTransitionTime;
    const connected = within(panel.getByTestId('condition-row-Connected'));
    const since = connected.getByText('2 hours ago');
    expect(since).toHaveAttribute('title', transition);
    expect(connected.queryByText(transition)).toBeNull();
    expect(connected.getByText('True')).toHaveStyle({ whiteSpace: 'nowrap' });
  });

  it("shows the change's pull request, short commit and branch, and where a local repository lives", async () => {
    const commit = '0123456789abcdef0123456789abcdef01234567';
    state.clusters = [
      registered('edge-local', {
        pullRequest: {
          url: `file:///home/dev/infrared/.data/gitops.git#${commit}`,
          number: 3,
          commit,
          merged: true,
          branch: 'main',
        },
      }),
      registered('edge-gh', {
        pullRequest: {
          url: 'https://github.com/acme/gitops/pull/7',
          number: 7,
          commit,
          merged: true,
          branch: 'trunk',
        },
      }),
    ];
    renderPage();

    const local = await openPanel('edge-local');
    const change = fact(local, 'Change');
    expect(change).toHaveTextContent(
      /^pull request #3, commit 0123456 on main\s*in the local repository \/home\/dev\/infrared\/\.data\/gitops\.git; read it with git -C /,
    );
    expect(within(change).getByText('0123456')).toHaveAttribute(
      'title',
      commit,
    );
    expect(change.innerHTML).not.toMatch(/file:/);
    expect(within(change).queryByRole('link')).toBeNull();
    await userEvent.click(
      local.getByRole('button', { name: 'Close the cluster panel' }),
    );

    const gh = await openPanel('edge-gh');
    const ghChange = fact(gh, 'Change');
    expect(ghChange).toHaveTextContent(
      /^pull request #7, commit 0123456 on trunk$/,
    );
    expect(
      within(ghChange).getByRole('link', { name: 'pull request #7' }),
    ).toHaveAttribute('href', 'https://github.com/acme/gitops/pull/7');
  });
});

describe('Clusters table at a laptop width', () => {
  let restore: () => void;
  afterEach(() => restore?.());

  it('collapses the columns a 1,280 px window has no room for into the panel, which shows their facts', async () => {
    restore = mockViewportWidth(1280);
    state.clusters = [management, registered('edge-1')];
    renderPage();
    const row = await screen.findByTestId('cluster-row-edge-1');

    const headers = screen.getAllByRole('columnheader').map(h => h.textContent);
    expect(headers).toEqual([
      'Name',
      'Type',
      'Connected',
      'Registered',
      'Argo CD server',
      'Gitops path',
    ]);
    expect(within(row).queryByText('k3s / aws / us-east-1')).toBeNull();
    expect(within(row).queryByText('v1.31.2')).toBeNull();
    expect(within(row).getByText('https://203.0.113.10:6443')).toBeVisible();
    expect(screen.getByTestId('hidden-columns')).toHaveTextContent(
      'Not shown at this window width: Flavor / provider / region, Kubernetes, Nodes, Zones placed, Orgs allowed.',
    );

    const panel = await openPanel('edge-1');
    expect(fact(panel, 'Flavor')).toHaveTextContent('k3s');
    expect(fact(panel, 'Provider')).toHaveTextContent('aws');
    expect(fact(panel, 'Region')).toHaveTextContent('us-east-1');
    expect(fact(panel, 'Kubernetes version')).toHaveTextContent('v1.31.2');
    expect(fact(panel, 'Nodes')).toHaveTextContent('3');
    expect(panel.getByRole('heading', { name: 'Zones placed' })).toBeVisible();
  });

  it('shows every column on a 1,920 px window, and only name, type and conditions below 1,280 px', async () => {
    restore = mockViewportWidth(1920);
    state.clusters = [registered('edge-1')];
    const { unmount } = await renderPage();
    await screen.findByTestId('cluster-row-edge-1');
    expect(screen.getAllByRole('columnheader')).toHaveLength(11);
    expect(screen.queryByTestId('hidden-columns')).toBeNull();
    unmount();
    restore();

    restore = mockViewportWidth(1024);
    renderPage();
    await screen.findByTestId('cluster-row-edge-1');
    expect(screen.getAllByRole('columnheader').map(h => h.textContent)).toEqual(
      ['Name', 'Type', 'Connected', 'Registered'],
    );
  });
});
