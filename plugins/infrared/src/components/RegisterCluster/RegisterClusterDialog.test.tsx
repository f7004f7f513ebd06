import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORABLE_CREDENTIAL_REASON } from '@infrared-clusters/plugin-infrared-common';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import {
  condition,
  EXEC_KUBECONFIG,
  management,
  registered,
  TOKEN_KUBECONFIG,
} from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

async function openForm() {
  state.clusters = [management];
  renderPage({ pollIntervalMs: 30 });
  await userEvent.click(
    await screen.findByRole('button', { name: 'Register a workload cluster' }),
  );
  return within(await screen.findByRole('dialog'));
}

const setName = (dialog: ReturnType<typeof within>, name: string) =>
  fireEvent.change(dialog.getByLabelText('Name'), { target: { value: name } });
const setKubeconfig = (dialog: ReturnType<typeof within>, text: string) =>
  fireEvent.change(dialog.getByRole('textbox', { name: 'Kubeconfig' }), {
    target: { value: text },
  });
const registerButton = (dialog: ReturnType<typeof within>) =>
  dialog.getByRole('button', { name: 'Register' });

describe('Register a workload cluster', () => {
  it('checks the name as you type, with the API rule', async () => {
    const dialog = await openForm();
    setKubeconfig(dialog, TOKEN_KUBECONFIG);

    setName(dialog, 'Edge_1');
    expect(
      dialog.getByText(
        'name may contain only lowercase letters, digits and hyphens, but contains "E" (use lowercase)',
      ),
    ).toBeInTheDocument();
    expect(registerButton(dialog)).toBeDisabled();

    setName(dialog, 'edge-');
    expect(
      dialog.getByText(
        'name must start and end with a lowercase letter or digit, not a hyphen',
      ),
    ).toBeInTheDocument();

    setName(dialog, 'e'.repeat(43));
    expect(
      dialog.getByText('name is 43 characters long; at most 42 are allowed'),
    ).toBeInTheDocument();
    expect(registerButton(dialog)).toBeDisabled();

    setName(dialog, 'edge-1');
    expect(dialog.queryByText(/name may contain/)).toBeNull();
    expect(registerButton(dialog)).toBeEnabled();
  });

  it('refuses an exec kubeconfig and says why', async () => {
    const dialog = await openForm();
    setName(dialog, 'eks-prod');
    setKubeconfig(dialog, EXEC_KUBECONFIG);
    const errors = within(dialog.getByTestId('kubeconfig-errors'));
    expect(
      errors.getByText(
        `exec credential plugins ("aws") are refused ${STORABLE_CREDENTIAL_REASON}: give the user a token, or client-certificate-data and client-key-data`,
      ),
    ).toBeInTheDocument();
    expect(
      errors.getByText('at kubeconfig.users[0].user.exec'),
    ).toBeInTheDocument();
    expect(dialog.queryByTestId('kubeconfig-summary')).toBeNull();
    expect(registerButton(dialog)).toBeDisabled();
  });

  it('says which context, server and credential a valid kubeconfig gives, even before the name is right', async () => {
    const dialog = await openForm();
    setName(dialog, 'Bad Name');
    setKubeconfig(dialog, TOKEN_KUBECONFIG);
    const summary = dialog.getByTestId('kubeconfig-summary');
    expect(summary).toHaveTextContent('Context: edge-ctx');
    expect(summary).toHaveTextContent('Server: https://203.0.113.10:6443');
    expect(summary).toHaveTextContent(
      'Credential: bearer token of user edge-admin',
    );
    expect(registerButton(dialog)).toBeDisabled();
  });

  it('reads an uploaded kubeconfig file', async () => {
    const dialog = await openForm();
    const file = new File([TOKEN_KUBECONFIG], 'edge.kubeconfig', {
      type: 'application/yaml',
    });
    await userEvent.upload(dialog.getByTestId('kubeconfig-file'), file);
    await waitFor(() =>
      expect(dialog.getByRole('textbox', { name: 'Kubeconfig' })).toHaveValue(
        TOKEN_KUBECONFIG,
      ),
    );
    expect(dialog.getByTestId('kubeconfig-summary')).toHaveTextContent(
      'Context: edge-ctx',
    );
  });

  it('POSTs the request, then follows the cluster until Connected and Registered are True', async () => {
    const logged = jest.spyOn(console, 'log');
    const dialog = await openForm();
    setName(dialog, 'edge-1');
    setKubeconfig(dialog, TOKEN_KUBECONFIG);
    fireEvent.change(dialog.getByLabelText('Region'), {
      target: { value: 'us-east-1' },
    });
    state.onGet = (cluster, reads) => {
      if (reads === 1) {
        return {
          ...cluster,
          conditions: [
            condition('Connected', 'True', 'Connected', 'Reached v1.31.2'),
          ],
        };
      }
      return registered('edge-1', {
        region: 'us-east-1',
        flavor: undefined,
        provider: undefined,
      });
    };
    await userEvent.click(registerButton(dialog));

    await waitFor(() =>
      expect(state.requests.find(r => r.method === 'POST')?.body).toEqual({
        name: 'edge-1',
        kubeconfig: TOKEN_KUBECONFIG,
        region: 'us-east-1',
      }),
    );
    const progress = within(await dialog.findByTestId('registration-progress'));
    expect(progress.getByText(/was created/)).toBeInTheDocument();
    expect(
      await progress.findByText(/^Registered\. Argo CD server/),
    ).toBeInTheDocument();
    expect(progress.getByText('https://203.0.113.10:6443')).toBeInTheDocument();
    expect(
      progress.getByRole('link', {
        name: 'registry/clusters/infrared-mgmt/components/cluster-edge-1.yaml',
      }),
    ).toBeInTheDocument();
    expect(progress.getByTestId('step-Connected')).toHaveTextContent(
      'Connected: True',
    );
    expect(progress.getByTestId('step-Registered')).toHaveTextContent(
      'Registered: True (Merged)',
    );

    // Polling stopped once registered.
    const reads = state.reads;
    await new Promise(r => setTimeout(r, 150));
    expect(state.reads).toBe(reads);

    // The kubeconfig went to the POST body only.
    const everywhere = JSON.stringify([
      { ...localStorage },
      { ...sessionStorage },
      logged.mock.calls,
      state.requests.filter(r => r.method !== 'POST'),
    ]);
    expect(everywhere).not.toContain('secret-token-value');
    logged.mockRestore();

    await userEvent.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByTestId('cluster-row-edge-1')).toBeInTheDocument();
  });

  it('says where registration is stuck and why', async () => {
    const dialog = await openForm();
    setName(dialog, 'edge-1');
    setKubeconfig(dialog, TOKEN_KUBECONFIG);
    state.onGet = cluster => ({
      ...cluster,
      conditions: [
        condition(
          'Connected',
          'False',
          'Unauthorized',
          'the API server refused the token (401)',
        ),
      ],
    });
    await userEvent.click(registerButton(dialog));
    expect(
      await dialog.findByText(/Stuck at Connected: Unauthorized/),
    ).toBeInTheDocument();
    expect(
      dialog.getByText('the API server refused the token (401)'),
    ).toBeInTheDocument();
  });

  it('registers the management cluster itself with inCluster', async () => {
    const dialog = await openForm();
    setName(dialog, 'mgmt-zones');
    await userEvent.click(
      dialog.getByLabelText('The management cluster itself'),
    );
    expect(dialog.queryByRole('textbox', { name: 'Kubeconfig' })).toBeNull();
    await userEvent.click(registerButton(dialog));
    await waitFor(() =>
      expect(state.requests.find(r => r.method === 'POST')?.body).toEqual({
        name: 'mgmt-zones',
        inCluster: true,
      }),
    );
  });

  it("shows the API's refusal next to the field it names", async () => {
    state.postFailure = {
      status: 409,
      body: {
        error: {
          name: 'ConflictError',
          message: 'cluster "edge-1" already exists',
        },
        errors: [
          { field: 'name', message: 'a cluster named edge-1 already exists' },
        ],
      },
    };
    const dialog = await openForm();
    setName(dialog, 'edge-1');
    setKubeconfig(dialog, TOKEN_KUBECONFIG);
    await userEvent.click(registerButton(dialog));
    expect(
      await dialog.findByText('a cluster named edge-1 already exists'),
    ).toBeInTheDocument();
    expect(
      dialog.getByText(/409 Conflict: cluster "edge-1" already exists/),
    ).toBeInTheDocument();
    expect(dialog.queryByTestId('registration-progress')).toBeNull();
  });
});

describe('Register a workload cluster: Flavor, Provider and Region', () => {
  const options = async () =>
    (await screen.findAllByRole('option')).map(o => o.textContent);

  it('labels the three fields for assistive technology', async () => {
    const dialog = await openForm();
    expect(dialog.getByRole('button', { name: 'Flavor' })).toBeInTheDocument();
    expect(
      dialog.getByRole('button', { name: 'Provider' }),
    ).toBeInTheDocument();
    expect(dialog.getByLabelText('Flavor')).toHaveTextContent('Not set');
    expect(dialog.getByLabelText('Provider')).toHaveTextContent('Not set');
    expect(dialog.getByRole('textbox', { name: 'Region' })).toBe(
      dialog.getByLabelText('Region'),
    );
  });

  it('offers no "not set" item first; a chosen flavor is cleared by the last item', async () => {
    const dialog = await openForm();
    setName(dialog, 'edge-1');
    setKubeconfig(dialog, TOKEN_KUBECONFIG);
    fireEvent.mouseDown(dialog.getByRole('button', { name: 'Flavor' }));
    expect(await options()).toEqual(['k3s', 'eks']);
    await userEvent.click(screen.getByRole('option', { name: 'k3s' }));
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(dialog.getByRole('button', { name: 'Flavor' })).toHaveTextContent(
      'k3s',
    );

    fireEvent.mouseDown(dialog.getByRole('button', { name: 'Flavor' }));
    expect(await options()).toEqual(['k3s', 'eks', 'Clear (not set)']);
    await userEvent.click(
      screen.getByRole('option', { name: 'Clear (not set)' }),
    );
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(dialog.getByRole('button', { name: 'Flavor' })).toHaveTextContent(
      'Not set',
    );

    fireEvent.mouseDown(dialog.getByRole('button', { name: 'Provider' }));
    expect(await options()).toEqual(['aws', 'gcp', 'linode', 'local']);
  });
});
