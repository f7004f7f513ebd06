import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management, unreachable } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(60_000);

const { state } = setUpFakeApi();

describe('a cluster panel has a URL of its own (/clusters/<name>)', () => {
  it('opens the panel of the cluster the URL names', async () => {
    state.clusters = [management, unreachable];
    renderPage({ at: '/clusters/edge-down' });
    expect(
      await screen.findByRole('region', { name: 'Cluster edge-down' }),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: 'Cluster infrared-mgmt' }),
    ).toBeNull();
  });

  it('opens no panel at /clusters, and a row opens its panel by its URL, which close leaves', async () => {
    state.clusters = [management, unreachable];
    renderPage({ at: '/clusters' });
    await screen.findByTestId('cluster-row-infrared-mgmt');
    expect(screen.queryByRole('region', { name: /^Cluster / })).toBeNull();
    await userEvent.click(
      screen.getByRole('button', { name: 'Open cluster infrared-mgmt' }),
    );
    const panel = await screen.findByRole('region', {
      name: 'Cluster infrared-mgmt',
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Close the cluster panel' }),
    );
    await waitFor(() => expect(panel).not.toBeInTheDocument());
  });

  it('says nothing and opens nothing for a name no cluster has', async () => {
    state.clusters = [management];
    renderPage({ at: '/clusters/no-such' });
    await screen.findByTestId('cluster-row-infrared-mgmt');
    expect(screen.queryByRole('region', { name: /^Cluster / })).toBeNull();
  });
});
