import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management, registered } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';
import { argoCluster, FakeArgoCd } from '../../argocd/__testUtils__/fakeArgoCd';
import { argoCdMswHandler } from '../../argocd/__testUtils__/transports';

jest.setTimeout(30_000);

const { server, state } = setUpFakeApi();
const PROXY_PATH = '/argocd/api';
const PROXY_URL = `http://backstage.test/api/proxy${PROXY_PATH}`;
// Shaped like an Argo CD API token (a JWT), so the panel's redaction has to find it by its shape.
const TOKEN =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiYWNrc3RhZ2UifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
const EDGE_SERVER = 'https://203.0.113.10:6443';
const ROW = 'Argo CD sees this cluster';

let argo: FakeArgoCd;
beforeEach(() => {
  argo = new FakeArgoCd(TOKEN);
  server.use(argoCdMswHandler(argo, PROXY_URL));
  state.clusters = [management, registered('edge-1')];
});
afterEach(() => {
  if (argo.violations.length) {
    throw new Error(`Argo CD's API refuses:\n${argo.violations.join('\n')}`);
  }
});

async function openPanel(name: string) {
  await userEvent.click(
    await screen.findByRole('button', { name: `Open cluster ${name}` }),
  );
  return within(await screen.findByRole('region', { name: `Cluster ${name}` }));
}

/** The value of the Argo CD row, once Argo CD answered. */
async function argoRow(panel: ReturnType<typeof within>): Promise<HTMLElement> {
  const dt = panel.getByText(ROW, { selector: 'dt *' }).closest('dt')!;
  const value = dt.nextElementSibling as HTMLElement;
  await within(value).findByText(/^(Successful|Failed|Unknown)/);
  return value;
}

describe('Argo CD sees this cluster', () => {
  it("shows Successful when Argo CD's cluster with the same server connected, with the time of its attempt on hover", async () => {
    const attemptedAt = '2026-11-30T21:00:00Z';
    argo.clusters = [
      argoCluster('in-cluster', 'https://kubernetes.default.svc', {
        status: 'Failed',
        message: 'not this one',
      }),
      argoCluster('edge-1', `${EDGE_SERVER}/`, {
        status: 'Successful',
        message: '',
        attemptedAt,
      }),
    ];
    renderPage({ argoCdProxyPath: PROXY_PATH });
    const row = await argoRow(await openPanel('edge-1'));

    expect(row).toHaveTextContent(/^Successful$/);
    expect(within(row).getByTestId('argocd-connection')).toHaveAttribute(
      'title',
      `Argo CD last tried at ${attemptedAt}`,
    );
    expect(argo.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/api/v1/clusters',
        operationId: 'ClusterService_List',
        status: 200,
      }),
    ]);
  });

  it("shows Failed with Argo CD's message, never a token in it", async () => {
    argo.clusters = [
      argoCluster('edge-1', EDGE_SERVER, {
        status: 'Failed',
        message: `Unable to connect to cluster: the server has asked for the client to provide credentials (Authorization: Bearer ${TOKEN}; token=${TOKEN})`,
      }),
    ];
    renderPage({ argoCdProxyPath: PROXY_PATH });
    const row = await argoRow(await openPanel('edge-1'));

    expect(row).toHaveTextContent(
      'Failed (Unable to connect to cluster: the server has asked for the client to provide credentials (Authorization: Bearer [redacted]; token=[redacted]))',
    );
    expect(document.body.innerHTML).not.toContain(TOKEN);
    expect(document.body.innerHTML).not.toContain(TOKEN.split('.')[2]);
  });

  it('reads the deprecated top-level connectionState when info has none, as older Argo CD servers send', async () => {
    const cluster = argoCluster('edge-1', EDGE_SERVER);
    cluster.connectionState = { status: 'Failed', message: 'x509: bad cert' };
    argo.clusters = [cluster];
    renderPage({ argoCdProxyPath: PROXY_PATH });
    const row = await argoRow(await openPanel('edge-1'));
    expect(row).toHaveTextContent(/^Failed \(x509: bad cert\)$/);
  });

  it('shows Unknown with the reason: not checked yet, not listed, or Argo CD refused to answer', async () => {
    argo.clusters = [argoCluster('edge-1', EDGE_SERVER)];
    const { unmount } = await renderPage({ argoCdProxyPath: PROXY_PATH });
    let row = await argoRow(await openPanel('edge-1'));
    expect(row).toHaveTextContent(
      /^Unknown \(Argo CD has not tried to connect yet\)$/,
    );
    unmount();

    argo.clusters = [argoCluster('other', 'https://198.51.100.7:6443')];
    const second = await renderPage({ argoCdProxyPath: PROXY_PATH });
    row = await argoRow(await openPanel('edge-1'));
    expect(row).toHaveTextContent(
      `Unknown (Argo CD lists no cluster with server ${EDGE_SERVER})`,
    );
    second.unmount();

    argo.failure = {
      status: 403,
      code: 7,
      message: 'permission denied: clusters, get, */https://203.0.113.10:6443',
    };
    renderPage({ argoCdProxyPath: PROXY_PATH });
    row = await argoRow(await openPanel('edge-1'));
    expect(row).toHaveTextContent(
      'Unknown (Argo CD could not be asked: Argo CD answered 403: permission denied: clusters, get, */https://203.0.113.10:6443)',
    );
  });

  it("shows Unknown, and that Argo CD's API could not be reached, when argocd-server is down behind the proxy", async () => {
    // Backstage's proxy (http-proxy-middleware) answers a refused connection with 504 and this
    // text, no JSON: what argocd.proxy.integration.test.ts (packages/backend) gets from the real
    // proxy backend with the real argocd-server stopped, and proxy.test.ts before a closed port.
    server.use(
      http.get(
        `${PROXY_URL}/v1/clusters`,
        () =>
          new HttpResponse(
            'Error occurred while trying to proxy: 127.0.0.1:7007',
            { status: 504 },
          ),
      ),
    );
    renderPage({ argoCdProxyPath: PROXY_PATH });
    const row = await argoRow(await openPanel('edge-1'));
    expect(row).toHaveTextContent(
      "Unknown (Argo CD could not be asked: The proxy to Argo CD answered 504: it could not reach Argo CD's API (is argocd-server running, at the target of proxy.endpoints['/argocd/api/v1/clusters']?))",
    );
    expect(argo.requests).toEqual([]);
  });

  it('is not there, and nothing asks Argo CD, when no proxy path is configured', async () => {
    argo.clusters = [
      argoCluster('edge-1', EDGE_SERVER, { status: 'Successful' }),
    ];
    renderPage();
    const panel = await openPanel('edge-1');
    expect(
      panel.getByText('Argo CD server', { selector: 'dt *' }),
    ).toBeVisible();
    expect(panel.queryByText(ROW)).toBeNull();
    expect(argo.requests).toEqual([]);
  });
});
