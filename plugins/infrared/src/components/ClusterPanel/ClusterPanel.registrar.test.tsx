import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { discoveredClusterView } from '@infrared-clusters/plugin-infrared-common';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

async function openPanel(name: string) {
  await userEvent.click(
    await screen.findByRole('button', { name: `Open cluster ${name}` }),
  );
  return within(await screen.findByRole('region', { name: `Cluster ${name}` }));
}

function fact(panel: ReturnType<typeof within>, term: string): HTMLElement {
  const dt = panel.getByText(term, { selector: 'dt *' }).closest('dt')!;
  return dt.nextElementSibling as HTMLElement;
}

const ago = (minutes: number) =>
  new Date(Date.now() - minutes * 60_000 - 5_000)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');

/**
 * Issue 23.1, "A discovered child stays Pending for ever": the panel of a discovered child says
 * what the registrar knows (its Argo CD Secret, the last pass's outcome and when, why it was
 * skipped), and never promises conditions "within its next pass".
 */
describe('Cluster panel of a discovered child', () => {
  it("shows the child's Argo CD Secret and the registrar's last pass, not a promise of conditions", async () => {
    state.clusters = [
      management,
      discoveredClusterView({
        name: 'sandbox',
        server: 'https://localhost:6444',
        sourceNamespace: 'k3k-sandbox',
        provider: 'k3k',
        state: 'active',
        lastPass: { outcome: 'unchanged', at: ago(1), since: ago(25) },
      }),
    ];
    renderPage();
    const row = within(await screen.findByTestId('cluster-row-sandbox'));
    expect(
      row.getByLabelText('Registered: True (Unchanged)'),
    ).toBeInTheDocument();
    expect(row.getByLabelText('Connected: Not checked')).toBeInTheDocument();
    expect(row.queryByLabelText(/Pending/)).toBeNull();

    const panel = await openPanel('sandbox');
    expect(fact(panel, 'Argo CD Secret')).toHaveTextContent('cluster-sandbox');
    expect(fact(panel, 'Argo CD server')).toHaveTextContent(
      'https://localhost:6444',
    );
    expect(fact(panel, "Registrar's last pass")).toHaveTextContent(
      /^Unchanged: its Argo CD Secret is up to date, 1 minute ago \(the same since 25 minutes ago\)$/,
    );
    expect(panel.queryByText(/within its next pass/)).toBeNull();
    expect(panel.getByTestId('condition-row-Registered')).toHaveTextContent(
      /Unchanged/,
    );
    expect(panel.getByText(/has no Connected condition/)).toBeInTheDocument();
  });

  it('says why a child was skipped, without an Argo CD Secret', async () => {
    state.clusters = [
      management,
      discoveredClusterView({
        name: 'vc-team',
        server: '',
        sourceNamespace: 'vcluster-team',
        provider: '',
        state: 'active',
        registered: false,
        lastPass: {
          outcome: 'skipped',
          at: ago(2),
          since: ago(2),
          reason: 'no_kubeconfig',
          message:
            'no kubeconfig Secret yet in namespace vcluster-team: no secret matching any configured provider',
        },
      }),
    ];
    renderPage();
    const row = within(await screen.findByTestId('cluster-row-vc-team'));
    expect(
      row.getByLabelText('Registered: False (Skipped)'),
    ).toBeInTheDocument();

    const panel = await openPanel('vc-team');
    expect(fact(panel, 'Argo CD Secret')).toHaveTextContent(
      'none: the registrar has not registered it',
    );
    const pass = fact(panel, "Registrar's last pass");
    expect(pass).toHaveTextContent(
      /^Skipped: not registered in Argo CD, 2 minutes ago/,
    );
    expect(within(pass).getByText('no_kubeconfig').tagName).toBe('CODE');
    expect(pass).toHaveTextContent(
      'no kubeconfig Secret yet in namespace vcluster-team: no secret matching any configured provider',
    );
  });

  it('says when this backend has not seen a pass', async () => {
    state.clusters = [
      management,
      discoveredClusterView({
        name: 'sandbox',
        server: 'https://localhost:6444',
        sourceNamespace: 'k3k-sandbox',
        provider: 'k3k',
        state: 'active',
      }),
    ];
    renderPage();
    const panel = await openPanel('sandbox');
    expect(fact(panel, "Registrar's last pass")).toHaveTextContent(
      /^Not known to this backend: the registrar passes on the replica that holds its Lease/,
    );
    expect(panel.queryByText(/within its next pass/)).toBeNull();
  });
});
