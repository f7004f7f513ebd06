import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management, registered } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

// usePermission caches answers in a module-wide SWR cache: the denied case has a file of its own.
describe('Orgs allowed for one who is not a platform admin', () => {
  it('disables the checkboxes, saying why', async () => {
    state.clusters = [management, registered('edge-1')];
    state.orgs = [
      {
        name: 'acme',
        displayName: 'ACME',
        namespace: 'ir-org-acme',
        platform: false,
        clusterAllowlist: [],
      },
    ];
    renderPage({ allow: false });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Open cluster edge-1' }),
    );
    const region = await screen.findByRole('region', {
      name: 'Cluster edge-1',
    });
    await waitFor(() =>
      expect(region.textContent).toMatch(
        /Only platform admins can change which orgs may use a cluster/,
      ),
    );
    expect(
      within(region).getByRole('checkbox', { name: 'Allow acme' }),
    ).toBeDisabled();
    expect(state.requests.filter(r => r.method === 'PUT')).toEqual([]);
  });
});
