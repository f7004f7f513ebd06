import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import {
  InfraredApiClient,
  type ProductPlacementView,
  type ZonePlacementView,
} from '@infrared-clusters/plugin-infrared-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { infraredApiRef } from '../../api';
import { rootRouteRef } from '../../routes';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { ProductPlacementCard } from './ProductPlacementCard';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

const entity = (annotation?: string) => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'checkout',
    annotations: (annotation
      ? { 'infrared.darkshift.io/product': annotation }
      : {}) as Record<string, string>,
  },
  spec: { type: 'service', owner: 'team-a', lifecycle: 'production' },
});

function render(
  annotation = 'ir-org-acme/checkout',
  mountedRoutes?: Record<string, typeof rootRouteRef>,
) {
  const client = new InfraredApiClient({
    discoveryApi: mockApis.discovery({ baseUrl: 'http://backstage.test' }),
    fetchApi: { fetch: (...args) => globalThis.fetch(...args) },
  });
  return renderInTestApp(
    <EntityProvider entity={entity(annotation)}>
      <ProductPlacementCard />
    </EntityProvider>,
    { apis: [[infraredApiRef, client]], mountedRoutes },
  );
}

const rc: ZonePlacementView = {
  name: 'checkout-rc',
  environment: 'pre-release',
  approval: 'auto',
  decision: 'Promotes',
  reason: 'ManagementCluster',
  message:
    'the zone names no cluster: it runs on the management cluster infrared-mgmt',
  cluster: 'infrared-mgmt',
  applicationName: 'product-checkout-rc',
  applicationPath:
    'registry/clusters/infrared-mgmt/components/product-checkout-rc.yaml',
  destination: {
    server: 'https://kubernetes.default.svc',
    namespace: 'checkout-rc',
  },
  project: 'products',
  choices: ['edge-2'],
  release: {
    name: 'checkout-v1',
    phase: 'Syncing',
    reason: 'WaitingForArgoCD',
  },
};
const prod: ZonePlacementView = {
  name: 'checkout-prod',
  environment: 'release',
  approval: 'human',
  decision: 'Fails',
  reason: 'NotOnAllowlist',
  message:
    "cluster edge-demo is not on org acme's cluster allowlist (allowed: edge-2); a platform admin can allow it under Orgs allowed on the cluster's panel",
  cluster: 'edge-demo',
  applicationName: 'product-checkout-prod',
  applicationPath:
    'registry/clusters/edge-demo/components/product-checkout-prod.yaml',
  destination: { name: 'edge-demo', namespace: 'checkout-prod' },
  project: 'products',
  choices: ['edge-2'],
  release: { name: 'checkout-v1', phase: 'Pending', reason: 'WaitingForZone' },
};

type Can = ProductPlacementView['can'];

function placement(
  zones: ZonePlacementView[],
  can: Partial<Can> = {},
): ProductPlacementView {
  return {
    namespace: 'ir-org-acme',
    name: 'checkout',
    displayName: 'Checkout',
    org: { name: 'acme', displayName: 'ACME' },
    managementCluster: 'infrared-mgmt',
    allowedClusters: ['edge-2'],
    zones,
    latestRelease: {
      name: 'checkout-v1',
      phase: 'Promoting',
      version: 'v1.0.0',
    },
    can: {
      setZoneCluster: true,
      updateAllowlist: true,
      approveZones: true,
      ...can,
    },
  };
}

const row = (zone: string) => within(screen.getByTestId(`zone-row-${zone}`));

describe('Product zone-placement card', () => {
  it('shows a row per zone: environment, cluster, decision with reason, Application path, Release phase', async () => {
    state.placements['ir-org-acme/checkout'] = placement([rc, prod], {
      setZoneCluster: false,
      updateAllowlist: false,
      approveZones: false,
    });
    await render();
    await screen.findByTestId('zone-row-checkout-prod');
    expect(screen.getByTestId('placement-subheader')).toHaveTextContent(
      'Product ir-org-acme/checkout · org acme, clusters allowed: edge-2',
    );
    expect(
      screen.getByRole('columnheader', { name: 'Release v1.0.0' }),
    ).toHaveAttribute('title', 'checkout-v1');

    expect(
      row('checkout-rc').getByText('pre-release, approval auto'),
    ).toBeInTheDocument();
    expect(
      row('checkout-rc').getByTestId('decision-checkout-rc'),
    ).toHaveTextContent('Promotes');
    expect(row('checkout-rc').getByText('Syncing')).toBeInTheDocument();
    expect(
      row('checkout-rc').getByText('WaitingForArgoCD'),
    ).toBeInTheDocument();

    const p = row('checkout-prod');
    expect(p.getAllByText('edge-demo')[0]).toBeInTheDocument();
    expect(
      p.getByLabelText('Decision for checkout-prod: Fails (NotOnAllowlist)'),
    ).toBeInTheDocument();
    expect(
      p.getByText(/not on org acme's cluster allowlist/),
    ).toBeInTheDocument();
    expect(screen.getByTestId('zone-row-checkout-prod')).toHaveTextContent(
      prod.applicationPath,
    );
    expect(p.getByTestId('destination-checkout-prod')).toHaveTextContent(
      '→ cluster edge-demo, namespace checkout-prod',
    );
    expect(p.getByTestId('application-path-checkout-prod')).toHaveAttribute(
      'title',
      'Application product-checkout-prod → cluster edge-demo, namespace checkout-prod, AppProject products',
    );
    expect(p.getByText('Pending')).toBeInTheDocument();
    expect(p.getByText('WaitingForZone')).toBeInTheDocument();
    // Neither an org admin nor a platform admin: no select, no allow button.
    expect(p.queryByRole('combobox')).toBeNull();
    expect(p.queryByRole('button')).toBeNull();
  });

  it("lets an org admin choose the zone's cluster from the org's allowlist or the management cluster", async () => {
    state.placements['ir-org-acme/checkout'] = placement([rc, prod], {
      setZoneCluster: true,
      updateAllowlist: false,
    });
    state.onSetZoneCluster = (key, _zone, cluster) => {
      state.placements[key] = placement(
        [
          rc,
          {
            ...prod,
            cluster,
            decision: 'Promotes',
            reason: 'Registered',
            message: `cluster ${cluster} is on org acme's cluster allowlist and Registered`,
          },
        ],
        { setZoneCluster: true, updateAllowlist: false },
      );
    };
    await render();
    const select = (await screen.findByLabelText(
      'Cluster of checkout-prod',
    )) as HTMLSelectElement;
    expect([...select.options].map(o => o.textContent)).toEqual([
      'infrared-mgmt (management)',
      'edge-demo (not allowed)',
      'edge-2',
    ]);
    expect(select.value).toBe('edge-demo');
    await userEvent.selectOptions(select, 'edge-2');
    await waitFor(() =>
      expect(
        row('checkout-prod').getByTestId('decision-checkout-prod'),
      ).toHaveTextContent('Promotes'),
    );
    expect(state.requests.filter(r => r.method === 'PUT')).toEqual([
      {
        method: 'PUT',
        path: '/v1/products/ir-org-acme/checkout/zones/checkout-prod/cluster',
        body: { cluster: 'edge-2' },
      },
    ]);
    const rcSelect = screen.getByLabelText(
      'Cluster of checkout-rc',
    ) as HTMLSelectElement;
    expect(rcSelect.value).toBe('');
  });

  it('lets a platform admin fix the allowlist from the card', async () => {
    state.orgs = [
      {
        name: 'acme',
        displayName: 'ACME',
        namespace: 'ir-org-acme',
        platform: false,
        clusterAllowlist: ['edge-2'],
      },
    ];
    state.placements['ir-org-acme/checkout'] = placement([rc, prod]);
    await render();
    const button = await screen.findByRole('button', {
      name: 'Allow acme to use edge-demo',
    });
    state.placements['ir-org-acme/checkout'] = placement([
      rc,
      { ...prod, decision: 'Promotes', reason: 'Registered', message: 'ok' },
    ]);
    await userEvent.click(button);
    // a one-click allow asks first, naming the org and the cluster; Cancel sends nothing
    let dialog = within(await screen.findByRole('dialog'));
    expect(
      dialog.getByText('Allow org acme to use cluster edge-demo?'),
    ).toBeInTheDocument();
    expect(dialog.getByText(/applies at once.*audited/)).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(state.requests.filter(r => r.path.includes('allowlist'))).toEqual(
      [],
    );
    await userEvent.click(button);
    dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(dialog.getByRole('button', { name: 'Allow acme' }));
    await waitFor(() =>
      expect(
        row('checkout-prod').getByTestId('decision-checkout-prod'),
      ).toHaveTextContent('Promotes'),
    );
    expect(state.requests.filter(r => r.path.includes('allowlist'))).toEqual([
      { method: 'GET', path: '/v1/orgs/acme/cluster-allowlist' },
      {
        method: 'PUT',
        path: '/v1/orgs/acme/cluster-allowlist',
        body: { clusters: ['edge-2', 'edge-demo'] },
      },
    ]);
  });

  it('shows the AppProject destination to add when the AppProject does not allow the zone', async () => {
    state.placements['ir-org-acme/checkout'] = placement([
      {
        ...prod,
        decision: 'Waits',
        reason: 'DestinationNotPermitted',
        message:
          "AppProject products does not allow destination name edge-demo, namespace checkout-prod: add it to the AppProject's spec.destinations, or Argo CD refuses to sync the Application",
        missingDestination: { name: 'edge-demo', namespace: 'checkout-prod' },
      },
    ]);
    await render();
    const p = within(await screen.findByTestId('zone-row-checkout-prod'));
    expect(
      p.getByText(
        /add this destination to AppProject products \(namespace argocd\)/,
      ),
    ).toBeInTheDocument();
    expect(
      p.getByText(/- name: edge-demo\s+namespace: checkout-prod/),
    ).toBeInTheDocument();
  });

  describe('approvals', () => {
    const awaiting: ZonePlacementView = {
      ...prod,
      decision: 'Promotes',
      reason: 'Registered',
      message: "cluster edge-demo is on org acme's cluster allowlist",
      release: {
        name: 'checkout-v1',
        phase: 'AwaitingApproval',
        reason: 'ApprovalRequired',
      },
    };
    const healthyRc = {
      ...rc,
      release: { name: 'checkout-v1', phase: 'Healthy' as const },
    };

    it('lets an org admin approve a zone awaiting approval, then shows who approved it', async () => {
      state.placements['ir-org-acme/checkout'] = placement(
        [healthyRc, awaiting],
        { updateAllowlist: false },
      );
      state.onApproveZone = key => {
        state.placements[key] = placement(
          [
            healthyRc,
            {
              ...awaiting,
              release: {
                name: 'checkout-v1',
                phase: 'Promoting',
                reason: 'PullRequestOpen',
                approvedBy: 'user:default/olga',
                approvedAt: '2026-12-01T23:00:00Z',
              },
            },
          ],
          { updateAllowlist: false },
        );
      };
      await render();
      const button = await screen.findByRole('button', {
        name: 'Approve checkout-prod for Release checkout-v1',
      });
      expect(button).toBeEnabled();
      // only the zone awaiting approval has the button
      expect(row('checkout-rc').queryByRole('button')).toBeNull();
      await userEvent.click(button);
      await waitFor(() =>
        expect(
          row('checkout-prod').getByTestId('approved-by-checkout-prod'),
        ).toHaveTextContent('Approved by user:default/olga'),
      );
      expect(row('checkout-prod').getByText('Promoting')).toBeInTheDocument();
      expect(row('checkout-prod').queryByRole('button')).toBeNull();
      expect(
        state.requests.filter(r => r.method === 'POST').map(r => r.path),
      ).toEqual([
        '/v1/products/ir-org-acme/checkout/releases/checkout-v1/zones/checkout-prod/approval',
      ]);
      // it reloaded the placement after the approval
      expect(
        state.requests.filter(r => r.path.endsWith('/placement')).length,
      ).toBe(2);
    });

    it('disables Approve with the reason for one who may not approve, and sends nothing', async () => {
      state.placements['ir-org-acme/checkout'] = placement([awaiting], {
        setZoneCluster: false,
        updateAllowlist: false,
        approveZones: false,
      });
      await render();
      const button = await screen.findByRole('button', {
        name: 'Approve checkout-prod for Release checkout-v1',
      });
      expect(button).toBeDisabled();
      expect(
        row('checkout-prod').getByTestId('approval-refusal-checkout-prod'),
      ).toHaveTextContent(
        'Only an org admin of org acme (a member of a team with role org-admin) or a platform admin may approve a release zone.',
      );
      expect(state.requests.filter(r => r.method === 'POST')).toEqual([]);
    });

    it("shows who approved a zone, and the server's refusal when an approval fails", async () => {
      state.placements['ir-org-acme/checkout'] = placement([
        {
          ...rc,
          release: {
            name: 'checkout-v1',
            phase: 'Healthy',
            approvedBy: 'user:default/pat',
            approvedAt: '2026-12-01T22:00:00Z',
          },
        },
        awaiting,
      ]);
      state.approvalFailure = {
        status: 409,
        body: {
          error: {
            name: 'ConflictError',
            message:
              'zone checkout-prod of Release checkout-v1 is in phase Promoting: only a zone in phase AwaitingApproval can be approved',
          },
        },
      };
      await render();
      expect(
        await screen.findByTestId('approved-by-checkout-rc'),
      ).toHaveAttribute('title', '2026-12-01T22:00:00Z');
      await userEvent.click(
        screen.getByRole('button', {
          name: 'Approve checkout-prod for Release checkout-v1',
        }),
      );
      expect(
        await screen.findByText(
          /Could not approve checkout-prod for Release checkout-v1: Request failed with 409.*is in phase Promoting/,
        ),
      ).toBeInTheDocument();
    });
  });

  it('offers "Register it" for a cluster Infrared does not know, never allowing it with no next step', async () => {
    state.placements['ir-org-acme/checkout'] = placement([
      rc,
      { ...prod, clusterKnown: false },
    ]);
    await render();
    const p = within(await screen.findByTestId('zone-row-checkout-prod'));
    expect(p.getByTestId('register-checkout-prod')).toHaveTextContent(
      'Cluster edge-demo is not registered yet. Register it on the Clusters page (platform admins), then allow org acme to use it.',
    );
    expect(p.getByRole('link', { name: 'Register it' })).toHaveAttribute(
      'href',
      '/clusters?register=edge-demo',
    );
    expect(p.queryByRole('button', { name: /^Allow/ })).toBeNull();
    // an unknown cluster has no panel to link to
    expect(p.queryByTestId('cluster-link-edge-demo')).toBeNull();
  });

  it('also offers "Register it" once the unknown cluster is on the allowlist (UnknownCluster)', async () => {
    state.placements['ir-org-acme/checkout'] = placement([
      {
        ...prod,
        reason: 'UnknownCluster',
        message:
          'cluster edge-demo is not a Cluster Infrared knows: register it first',
        clusterKnown: false,
      },
    ]);
    await render();
    const p = within(await screen.findByTestId('zone-row-checkout-prod'));
    expect(p.getByTestId('register-checkout-prod')).toHaveTextContent(
      'Cluster edge-demo is not registered yet. Register it on the Clusters page (platform admins).',
    );
  });

  it("links each cluster it names to its panel, through the plugin's route ref", async () => {
    state.placements['ir-org-acme/checkout'] = placement([rc, prod], {
      setZoneCluster: false,
    });
    await render(undefined, { '/infra/clusters': rootRouteRef });
    const p = within(await screen.findByTestId('zone-row-checkout-prod'));
    const panel = (name: string) => `/infra/clusters/${name}`;
    for (const link of p.getAllByRole('link', { name: 'edge-demo' })) {
      expect(link).toHaveAttribute('href', panel('edge-demo'));
    }
    expect(p.getAllByRole('link', { name: 'edge-demo' })).toHaveLength(2);
    expect(
      row('checkout-rc').getByRole('link', { name: 'infrared-mgmt' }),
    ).toHaveAttribute('href', panel('infrared-mgmt'));
    expect(
      within(screen.getByTestId('placement-subheader')).getByRole('link', {
        name: 'edge-2',
      }),
    ).toHaveAttribute('href', panel('edge-2'));
  });

  it('links the cluster under its select for an org admin', async () => {
    state.placements['ir-org-acme/checkout'] = placement([prod]);
    await render();
    const p = within(await screen.findByTestId('zone-row-checkout-prod'));
    expect(p.getByLabelText('Cluster of checkout-prod')).toBeInTheDocument();
    expect(p.getAllByRole('link', { name: 'edge-demo' })[0]).toHaveAttribute(
      'href',
      '/clusters/edge-demo',
    );
  });

  it('explains each Release phase in words: what it waits for and who acts next', async () => {
    const phases: ZonePlacementView['release'][] = [
      { name: 'checkout-v1', phase: 'Pending', reason: 'WaitingForZone' },
      { name: 'checkout-v1', phase: 'AwaitingApproval' },
      { name: 'checkout-v1', phase: 'Promoting', reason: 'PullRequestOpen' },
      { name: 'checkout-v1', phase: 'Syncing', reason: 'WaitingForArgoCD' },
      { name: 'checkout-v1', phase: 'Healthy' },
      { name: 'checkout-v1', phase: 'Failed', reason: 'NotOnAllowlist' },
    ];
    state.placements['ir-org-acme/checkout'] = placement(
      phases.map((release, i) => ({ ...prod, name: `z${i}`, release })),
    );
    await render();
    await screen.findByTestId('zone-row-z0');
    const words = phases.map(
      (_r, i) => screen.getByTestId(`phase-words-z${i}`).textContent,
    );
    expect(words).toEqual([
      'Waits for the zone before it to be Healthy (zones go in order). Next: the release gate, by itself, once that zone is Healthy.',
      expect.stringMatching(
        /^Waits for a human approval.*Next: an org admin of the Product's org or a platform admin clicks Approve/,
      ),
      expect.stringMatching(
        /^Waits for its gitops change .* to be merged\. Next: a reviewer merges the pull request/,
      ),
      expect.stringMatching(/^Waits for Argo CD to sync .* Next: Argo CD/),
      expect.stringMatching(/^Waits for nothing: Argo CD reports .*Healthy/),
      expect.stringMatching(/^Waits for nothing: the release gate stopped/),
    ]);
    expect(screen.getByTestId('release-phase-words')).toHaveTextContent(
      "Release v1.0.0 is Promoting: it waits for each zone, in order, to become Healthy. Next: the release gate, zone by zone; each zone's phase says who acts there.",
    );
  });

  it('says what is wrong with the annotation', async () => {
    await render('checkout');
    expect(
      await screen.findByText(
        /infrared.darkshift.io\/product must be <namespace>\/<name>, like ir-org-acme\/checkout, not "checkout"/,
      ),
    ).toBeInTheDocument();
    expect(state.requests).toEqual([]);
  });

  it('says when the Product is not found', async () => {
    await render('ir-org-acme/nope');
    expect(
      await screen.findByText(
        /could not be loaded: .*Product ir-org-acme\/nope not found/,
      ),
    ).toBeInTheDocument();
  });
});
