import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import {
  discovered,
  management,
  registered,
} from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

async function openPanel(name: string) {
  await userEvent.click(
    await screen.findByRole('button', { name: `Open cluster ${name}` }),
  );
  return within(await screen.findByRole('region', { name: `Cluster ${name}` }));
}

describe('Cluster panel and Remove', () => {
  it('shows every condition of the cluster', async () => {
    state.clusters = [management, registered('edge-1')];
    renderPage();
    const panel = await openPanel('edge-1');
    const table = within(panel.getByRole('table', { name: 'Conditions' }));
    // Per condition: its short facts on one row, its message on the next, across the table.
    const rows = table.getAllByRole('row').slice(1);
    expect(rows.map(r => r.textContent)).toEqual([
      'ConnectedTrueConnected2 hours ago1',
      'Reached v1.31.2 with 3 nodes',
      'RegisteredTrueMerged2 hours ago1',
      'Merged pull request #7',
    ]);
    expect(panel.getByText('cluster-edge-1')).toBeInTheDocument();
  });

  it('confirms what is removed and what stays, then sends DELETE and drops the row', async () => {
    state.clusters = [management, registered('edge-1'), registered('edge-2')];
    renderPage();
    const panel = await openPanel('edge-1');
    await userEvent.click(panel.getByRole('button', { name: 'Remove' }));

    const dialog = within(
      await screen.findByRole('dialog', { name: 'Remove cluster edge-1?' }),
    );
    const removed = dialog.getByTestId('removed');
    expect(removed).toHaveTextContent('the Cluster edge-1');
    expect(removed).toHaveTextContent(
      'its kubeconfig Secret cluster-edge-1-kubeconfig in namespace infrared',
    );
    expect(removed).toHaveTextContent(
      'its Argo CD cluster Secret cluster-edge-1 in namespace argocd',
    );
    const stays = dialog.getByTestId('stays');
    expect(stays).toHaveTextContent(
      'the app-of-apps file registry/clusters/infrared-mgmt/components/cluster-edge-1.yaml in the gitops repo',
    );
    expect(stays).toHaveTextContent(
      'everything on the cluster itself: nothing on edge-1 is deleted',
    );
    expect(state.requests.some(r => r.method === 'DELETE')).toBe(false);

    await userEvent.click(
      dialog.getByRole('button', { name: 'Remove cluster' }),
    );
    await waitFor(() =>
      expect(state.requests.filter(r => r.method === 'DELETE')).toEqual([
        { method: 'DELETE', path: '/v1/clusters/edge-1' },
      ]),
    );
    await waitFor(() =>
      expect(screen.queryByTestId('cluster-row-edge-1')).toBeNull(),
    );
    expect(screen.getByTestId('cluster-row-edge-2')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Cluster edge-1' })).toBeNull();
  });

  it('sends nothing when the removal is cancelled', async () => {
    state.clusters = [registered('edge-1')];
    renderPage();
    const panel = await openPanel('edge-1');
    await userEvent.click(panel.getByRole('button', { name: 'Remove' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Remove cluster edge-1?' }),
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Remove cluster edge-1?' }),
      ).toBeNull(),
    );
    expect(state.requests.some(r => r.method === 'DELETE')).toBe(false);
  });

  it('offers no Remove for the management cluster, and says why', async () => {
    state.clusters = [management];
    renderPage();
    const panel = await openPanel('infrared-mgmt');
    expect(panel.queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(
      panel.getByText(/management cluster can't be removed/),
    ).toBeInTheDocument();
  });

  it('offers no Remove for a discovered cluster', async () => {
    state.clusters = [discovered];
    renderPage();
    const panel = await openPanel('child-a');
    expect(panel.queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(
      panel.getByText(/Discovered by the registrar in namespace team-a/),
    ).toBeInTheDocument();
  });
});
