import { screen, waitFor } from '@testing-library/react';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(60_000);

const { state } = setUpFakeApi();

const REFUSED =
  'installation "trial" manages management cluster infrared-mgmt (Lease infrared/infrared-installation); this backend is installation "portal" and neither reconciles nor writes.';

describe('the Clusters page when another installation manages the management cluster', () => {
  it("says so, with the backend's words, as an error", async () => {
    state.clusters = [management];
    state.health = {
      status: 'ok',
      installation: {
        id: 'portal',
        state: 'refused',
        holder: 'trial',
        lease: 'infrared/infrared-installation',
        managementCluster: 'infrared-mgmt',
        message: REFUSED,
      },
    };
    renderPage({ pollIntervalMs: 30 });
    const alert = await screen.findByRole('alert', { name: 'Installation' });
    expect(alert).toHaveTextContent(
      `This portal does not manage the management cluster: ${REFUSED}`,
    );
  });

  it('says nothing while this installation holds the Lease, or when the check is off', async () => {
    state.clusters = [management];
    for (const s of ['held', 'unguarded'] as const) {
      state.health = {
        status: 'ok',
        installation: {
          id: 'portal',
          state: s,
          lease: 'infrared/infrared-installation',
          managementCluster: 'infrared-mgmt',
          message: 'fine',
        },
      };
      const { unmount } = renderPage({ pollIntervalMs: 30 });
      await screen.findByText(management.name);
      await waitFor(() =>
        expect(
          screen.queryByRole('alert', { name: 'Installation' }),
        ).toBeNull(),
      );
      unmount();
    }
  });
});
