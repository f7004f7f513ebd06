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

  it('lists the zones that stop deploying and the allowlists the cluster is taken off (issue 22.7)', async () => {
    state.clusters = [management, registered('edge-1'), registered('edge-2')];
    const zone = (
      namespace: string,
      product: string,
      name: string,
      cluster: string,
      clusterSet = true,
    ) => ({
      product: { namespace, name: product, displayName: product },
      zone: name,
      environment: 'release' as const,
      cluster,
      clusterSet,
    });
    state.zones = [
      zone('ir-org-acme', 'checkout', 'checkout-prod', 'edge-1'),
      zone('ir-org-globex', 'blog', 'blog-prod', 'edge-1'),
      zone('ir-org-acme', 'checkout', 'checkout-eu', 'edge-2'),
      zone('ir-org-acme', 'checkout', 'checkout-rc', 'infrared-mgmt', false),
    ];
    const org = (name: string, clusterAllowlist: string[]) => ({
      name,
      displayName: name,
      namespace: `ir-org-${name}`,
      platform: false,
      clusterAllowlist,
    });
    state.orgs = [
      org('acme', ['edge-1', 'edge-2']),
      org('globex', ['edge-1']),
      org('initech', ['edge-2']),
    ];
    renderPage();
    const panel = await openPanel('edge-1');
    await userEvent.click(panel.getByRole('button', { name: 'Remove' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Remove cluster edge-1?' }),
    );
    const stops = within(
      await dialog.findByRole('list', { name: 'Zones that stop' }),
    );
    expect(stops.getAllByRole('listitem').map(li => li.textContent)).toEqual([
      'ir-org-acme/checkout zone checkout-prod (release)',
      'ir-org-globex/blog zone blog-prod (release)',
    ]);
    expect(dialog.getByTestId('stops')).toHaveTextContent(
      'Zones on the cluster stop deploying:',
    );
    expect(dialog.getByTestId('stops')).toHaveTextContent(
      'edge-1 is taken off the cluster allowlist of org acme, org globex: a cluster registered later under the name edge-1 is not allowed until a platform admin ticks it again',
    );

    // the DELETE answer's words stay on the page once the dialog closes
    await userEvent.click(
      dialog.getByRole('button', { name: 'Remove cluster' }),
    );
    expect(
      await screen.findByRole('alert', { name: 'Removal' }),
    ).toHaveTextContent(
      'Cluster edge-1 removed. Zones on the cluster stop deploying: ir-org-acme/checkout zone checkout-prod, ir-org-globex/blog zone blog-prod.',
    );
  });

  it('says no zone stops when none names the cluster', async () => {
    state.clusters = [registered('edge-1')];
    state.zones = [];
    state.orgs = [];
    renderPage();
    const panel = await openPanel('edge-1');
    await userEvent.click(panel.getByRole('button', { name: 'Remove' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Remove cluster edge-1?' }),
    );
    expect(
      await dialog.findByText('no zone names edge-1: nothing stops deploying'),
    ).toBeInTheDocument();
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
