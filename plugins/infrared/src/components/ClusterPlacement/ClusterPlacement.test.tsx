import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ZoneView } from '@infrared-clusters/plugin-infrared-common';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management, registered } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';
import { mockViewportWidth } from '../../__testUtils__/viewport';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

const zone = (
  product: string,
  name: string,
  cluster: string,
  environment: 'pre-release' | 'release' = 'release',
): ZoneView => ({
  product: { namespace: 'ir-org-acme', name: product, displayName: product },
  org: 'acme',
  zone: name,
  environment,
  cluster,
  clusterSet: cluster !== 'infrared-mgmt',
});

function seed() {
  state.clusters = [management, registered('edge-1'), registered('edge-2')];
  state.orgs = [
    {
      name: 'acme',
      displayName: 'ACME',
      namespace: 'ir-org-acme',
      platform: false,
      clusterAllowlist: ['edge-2'],
    },
    {
      name: 'globex',
      displayName: 'globex',
      namespace: 'ir-org-globex',
      platform: false,
      clusterAllowlist: ['edge-1', 'edge-2'],
    },
  ];
  state.zones = [
    zone('checkout', 'checkout-rc', 'infrared-mgmt', 'pre-release'),
    zone('checkout', 'checkout-prod', 'edge-1'),
    zone('payments', 'payments-1', 'edge-1'),
    zone('payments', 'payments-2', 'edge-1'),
    zone('payments', 'payments-3', 'edge-1'),
  ];
}

async function openPanel(name: string) {
  await userEvent.click(
    await screen.findByRole('button', { name: `Open cluster ${name}` }),
  );
  return within(await screen.findByRole('region', { name: `Cluster ${name}` }));
}

const cell = (cluster: string, index: number) =>
  within(screen.getByTestId(`cluster-row-${cluster}`)).getAllByRole('cell')[
    index
  ];

describe('placement on the Clusters page', () => {
  let restore: () => void;
  afterEach(() => restore?.());

  it("lists each cluster's zones (product/zone, environment) and allowed orgs in the wide table", async () => {
    restore = mockViewportWidth(1920);
    seed();
    renderPage();
    await screen.findByTestId('cluster-row-edge-1');
    const headers = screen.getAllByRole('columnheader').map(h => h.textContent);
    const zonesAt = headers.indexOf('Zones placed');
    const orgsAt = headers.indexOf('Orgs allowed');
    await waitFor(() =>
      expect(cell('edge-1', orgsAt)).toHaveTextContent('globex'),
    );
    expect(cell('edge-1', zonesAt)).toHaveTextContent(
      'checkout/checkout-prod (release)payments/payments-1 (release)payments/payments-2 (release)+1 more',
    );
    expect(cell('edge-2', zonesAt)).toHaveTextContent(/^—$/);
    expect(cell('edge-2', orgsAt)).toHaveTextContent(/^acme, globex$/);
    expect(cell('infrared-mgmt', zonesAt)).toHaveTextContent(
      'checkout/checkout-rc (pre-release)',
    );
    expect(cell('infrared-mgmt', orgsAt)).toHaveTextContent(/^—$/);
  });

  it("lists the cluster's zones in its panel, and one checkbox per org", async () => {
    seed();
    renderPage();
    const panel = await openPanel('edge-1');
    const zones = await panel.findByRole('list', { name: 'Zones placed' });
    expect(within(zones).getAllByRole('listitem')).toHaveLength(4);
    expect(zones).toHaveTextContent(
      'checkout/checkout-prod (release, org acme)',
    );
    expect(
      panel.getByRole('checkbox', { name: 'Allow acme' }),
    ).not.toBeChecked();
    expect(panel.getByRole('checkbox', { name: 'Allow globex' })).toBeChecked();
    // that a tick saves at once and is audited (issue 23.5)
    expect(panel.getByTestId('orgs-allowed-note')).toHaveTextContent(
      "A tick saves at once: it changes that org's cluster allowlist right away (no Save button), the release gate looks again, and each change is audited with who made it and the allowlist before and after.",
    );
  });

  it("ticking an org replaces that org's allowlist through the API, from its current list", async () => {
    seed();
    renderPage();
    const panel = await openPanel('edge-1');
    const acme = await panel.findByRole('checkbox', { name: 'Allow acme' });
    await userEvent.click(acme);
    await waitFor(() =>
      expect(panel.getByRole('checkbox', { name: 'Allow acme' })).toBeChecked(),
    );
    expect(
      state.requests.filter(r => r.path.includes('cluster-allowlist')),
    ).toEqual([
      { method: 'GET', path: '/v1/orgs/acme/cluster-allowlist' },
      {
        method: 'PUT',
        path: '/v1/orgs/acme/cluster-allowlist',
        body: { clusters: ['edge-1', 'edge-2'] },
      },
    ]);

    await userEvent.click(
      panel.getByRole('checkbox', { name: 'Allow globex' }),
    );
    await waitFor(() =>
      expect(
        panel.getByRole('checkbox', { name: 'Allow globex' }),
      ).not.toBeChecked(),
    );
    // the PUT, then the orgs and zones read again (they may land after the box changed)
    await waitFor(() =>
      expect(state.requests.at(-3)).toEqual({
        method: 'PUT',
        path: '/v1/orgs/globex/cluster-allowlist',
        body: { clusters: ['edge-2'] },
      }),
    );
  });

  it("says why when the server refuses, and leaves the box as the org's list is", async () => {
    seed();
    state.allowlistFailure = {
      status: 403,
      body: {
        error: {
          name: 'NotAllowedError',
          message:
            "only platform admins may change an org's cluster allowlist (permission infrared.allowlist.update)",
        },
      },
    };
    renderPage();
    const panel = await openPanel('edge-1');
    await userEvent.click(
      await panel.findByRole('checkbox', { name: 'Allow acme' }),
    );
    expect(
      await panel.findByText(
        /Could not allow acme: .*infrared\.allowlist\.update/,
      ),
    ).toBeInTheDocument();
    expect(
      panel.getByRole('checkbox', { name: 'Allow acme' }),
    ).not.toBeChecked();
  });

  it('shows allowlist entries that name a cluster that is gone, and takes one off (issue 22.7)', async () => {
    seed();
    state.orgs[0].clusterAllowlist = ['edge-2', 'edge-old'];
    renderPage();
    const alert = within(
      await screen.findByRole('alert', {
        name: 'Allowlists naming clusters that are gone',
      }),
    );
    expect(alert.getByText(/org acme: edge-old \(gone\)/)).toBeInTheDocument();
    expect(alert.queryByText(/edge-2/)).toBeNull();
    await userEvent.click(
      alert.getByRole('button', { name: "Take edge-old off acme's allowlist" }),
    );
    await waitFor(() =>
      expect(
        state.requests.filter(r => r.method === 'PUT').map(r => r.body),
      ).toEqual([{ clusters: ['edge-2'] }]),
    );
    await waitFor(() =>
      expect(
        screen.queryByRole('alert', {
          name: 'Allowlists naming clusters that are gone',
        }),
      ).toBeNull(),
    );
  });

  it('shows no such entry when every allowlisted cluster exists', async () => {
    seed();
    renderPage();
    await screen.findByRole('button', { name: 'Open cluster edge-1' });
    expect(
      screen.queryByRole('alert', {
        name: 'Allowlists naming clusters that are gone',
      }),
    ).toBeNull();
  });
});
