import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management, registered } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

// usePermission caches answers in a module-wide SWR cache: this file holds only the denied case
// (the other suites, rendered with ALLOW, click Register and Remove).
describe('Clusters page for a user who is not a platform admin', () => {
  it('shows the clusters read-only, with Register and Remove disabled and saying why', async () => {
    state.clusters = [management, registered('edge-1')];
    renderPage({ allow: false });
    await screen.findByTestId('cluster-row-edge-1');

    // The reason appears once the permission framework has answered (not while it is asked).
    expect(
      await screen.findByText('Only platform admins can register clusters'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Register a workload cluster' }),
    ).toBeDisabled();
    expect(screen.getByText(/You see this page read-only/)).toBeInTheDocument();

    await userEvent.click(
      screen.getByRole('button', { name: 'Open cluster edge-1' }),
    );
    const panel = within(
      await screen.findByRole('region', { name: 'Cluster edge-1' }),
    );
    expect(
      await panel.findByText('Only platform admins can remove clusters'),
    ).toBeInTheDocument();
    expect(panel.getByRole('button', { name: 'Remove' })).toBeDisabled();
    expect(state.requests.every(r => r.method === 'GET')).toBe(true);
  });
});
