import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

const DEMO = {
  module: 'local/demo-cluster',
  version: 'v1',
  title: 'Demo cluster',
  description: 'Starts another local API server',
  variables: [
    { name: 'name', type: 'string' as const },
    { name: 'nodes', type: 'number' as const, default: '1' },
    { name: 'zones', type: 'list' as const },
  ],
};

async function openBuildForm() {
  state.clusters = [management];
  state.templates = [DEMO];
  renderPage({ pollIntervalMs: 30 });
  await userEvent.click(
    await screen.findByRole('button', { name: 'Register a workload cluster' }),
  );
  const dialog = within(await screen.findByRole('dialog'));
  await userEvent.click(
    dialog.getByRole('radio', { name: 'Build with OpenTofu' }),
  );
  return dialog;
}

const set = (dialog: ReturnType<typeof within>, label: string, value: string) =>
  fireEvent.change(dialog.getByLabelText(label), { target: { value } });

async function chooseTemplate(dialog: ReturnType<typeof within>) {
  fireEvent.mouseDown(dialog.getByRole('button', { name: /Template/ }));
  await userEvent.click(
    await screen.findByRole('option', {
      name: 'Demo cluster (local/demo-cluster@v1)',
    }),
  );
}

describe('Register a workload cluster: Build with OpenTofu', () => {
  it("offers the configured templates, checks the variables with -common's rules and sends template and provision", async () => {
    const dialog = await openBuildForm();
    set(dialog, 'Name', 'built-1');
    await chooseTemplate(dialog);
    // the template's variables, the one called name filled from the cluster's name
    expect(dialog.queryByLabelText('Variable name')).toBeNull();
    expect(dialog.getByText('(number, default 1)')).toBeInTheDocument();
    const register = dialog.getByRole('button', { name: 'Register' });
    expect(register).toBeDisabled(); // zones is required

    set(dialog, 'Variable zones', 'a,b');
    expect(
      await dialog.findByText(
        'provision.variables.zones must be a JSON list, like ["a", "b"]',
      ),
    ).toBeInTheDocument();
    expect(register).toBeDisabled();
    set(dialog, 'Variable zones', '["a","b"]');
    set(dialog, 'Credentials Secret', 'Bad Name');
    expect(await dialog.findByText(/is not a Secret name/)).toBeInTheDocument();
    expect(register).toBeDisabled();
    set(dialog, 'Credentials Secret', 'built-1-aws');
    await waitFor(() => expect(register).toBeEnabled());
    await userEvent.click(register);
    await waitFor(() =>
      expect(state.requests.filter(r => r.method === 'POST')).toEqual([
        {
          method: 'POST',
          path: '/v1/clusters',
          body: {
            name: 'built-1',
            template: { module: 'local/demo-cluster', version: 'v1' },
            provision: {
              variables: { zones: '["a","b"]', name: 'built-1' },
              credentialsSecretRef: { name: 'built-1-aws' },
            },
          },
        },
      ]),
    );
  });

  it('shows no internal variable and sends none, even if a server lists one', async () => {
    state.clusters = [management];
    state.templates = [
      {
        ...DEMO,
        variables: [
          { name: 'name', type: 'string' as const },
          {
            name: 'devenv_cli',
            type: 'string' as const,
            default: '/machine/devenv.js',
            internal: true,
          },
        ],
      },
    ];
    renderPage({ pollIntervalMs: 30 });
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Register a workload cluster',
      }),
    );
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(
      dialog.getByRole('radio', { name: 'Build with OpenTofu' }),
    );
    set(dialog, 'Name', 'built-2');
    await chooseTemplate(dialog);
    expect(dialog.queryByLabelText('Variable devenv_cli')).toBeNull();
    expect(dialog.queryByText(/machine/)).toBeNull();
    const register = dialog.getByRole('button', { name: 'Register' });
    await waitFor(() => expect(register).toBeEnabled());
    await userEvent.click(register);
    await waitFor(() =>
      expect(
        state.requests.find(r => r.method === 'POST')?.body.provision,
      ).toEqual({ variables: { name: 'built-2' } }),
    );
  });

  it('says so when the portal offers no template', async () => {
    state.clusters = [management];
    renderPage({ pollIntervalMs: 30 });
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Register a workload cluster',
      }),
    );
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(
      dialog.getByRole('radio', { name: 'Build with OpenTofu' }),
    );
    expect(
      await dialog.findByText(/The portal offers no cluster template/),
    ).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Register' })).toBeDisabled();
  });
});

describe('Build with OpenTofu while OpenTofu is being prepared', () => {
  it('says so with the progress, keeps the form usable, and drops the notice once the server says it is ready', async () => {
    state.runners = [
      {
        ready: false,
        message: 'OpenTofu is being prepared (about 7 min left)',
        percent: 42,
        secondsLeft: 400,
      },
    ];
    const dialog = await openBuildForm();
    const notice = await dialog.findByRole('status');
    expect(notice).toHaveTextContent(
      'OpenTofu is being prepared (about 7 min left)',
    );
    expect(notice).toHaveTextContent(
      'A build you start now waits for it, then runs on its own: no restart.',
    );
    expect(
      within(notice).getByRole('progressbar', {
        name: 'OpenTofu preparation',
      }),
    ).toHaveAttribute('aria-valuenow', '42');
    // the form works meanwhile: the Job waits for the runner
    await chooseTemplate(dialog);
    // asked again (every 3 poll intervals) until ready, with no reload
    state.runners = [{ ready: true }];
    await waitFor(() => expect(dialog.queryByRole('status')).toBeNull());
  });

  it('shows no notice when the runner is ready', async () => {
    const dialog = await openBuildForm();
    await chooseTemplate(dialog);
    expect(dialog.queryByRole('status')).toBeNull();
  });
});
