import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { BASE, setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { server, state } = setUpFakeApi();

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

describe('Register a workload cluster: after a build is submitted (issue 23.3)', () => {
  it("follows the plan Job, then shows the plan's summary, and never calls the missing connection a failure", async () => {
    // the API's answers for a built cluster: no connection until an apply gives it one
    const built = (extra: Partial<ClusterView> = {}): ClusterView => ({
      name: 'built-3',
      type: 'workload',
      connection: 'none',
      conditions: [],
      createdAt: new Date().toISOString(),
      template: { module: 'local/demo-cluster', version: 'v1' },
      provision: { action: 'plan', variables: { name: 'built-3' } },
      ...extra,
    });
    server.use(
      http.post(`${BASE}/v1/clusters`, () => {
        state.clusters.push(built());
        return HttpResponse.json(built(), { status: 201 });
      }),
    );
    const dialog = await openBuildForm();
    set(dialog, 'Name', 'built-3');
    await chooseTemplate(dialog);
    set(dialog, 'Variable zones', '["a"]');
    const register = dialog.getByRole('button', { name: 'Register' });
    await waitFor(() => expect(register).toBeEnabled());
    await userEvent.click(register);
    expect(await dialog.findByTestId('build-progress')).toHaveTextContent(
      'Plan: starting',
    );

    // the clusters pass writes Connected False NoConnection; the plan Job runs
    const pending = [
      {
        type: 'Connected',
        status: 'False' as const,
        reason: 'NoConnection',
        message: 'spec.connection is not set',
        lastTransitionTime: new Date().toISOString(),
      },
      {
        type: 'Registered',
        status: 'False' as const,
        reason: 'WaitingForConnection',
        message: 'registration waits for Connected',
        lastTransitionTime: new Date().toISOString(),
      },
    ];
    const job = {
      action: 'plan',
      generation: 1,
      job: 'tofu-built-3-1-plan',
    };
    state.clusters[1] = built({
      conditions: pending,
      provision: {
        action: 'plan',
        status: {
          ...job,
          phase: 'Running',
          message: 'Pod tofu-built-3-1-plan-x is Running',
        },
      },
    });
    await waitFor(() =>
      expect(dialog.getByTestId('step-Job')).toHaveTextContent(
        'Plan: Running…Job tofu-built-3-1-plan: Pod tofu-built-3-1-plan-x is Running',
      ),
    );
    const progress = dialog.getByTestId('registration-progress');
    expect(progress).not.toHaveTextContent(
      /Stuck|NoConnection|remove the cluster/,
    );
    expect(dialog.queryByTestId('step-Connected')).toBeNull();

    state.clusters[1] = built({
      conditions: pending,
      provision: {
        action: 'plan',
        status: {
          ...job,
          phase: 'Succeeded',
          message: 'plan: 1 to add, 0 to change, 0 to destroy',
          summary: {
            add: 1,
            change: 0,
            destroy: 0,
            resources: [
              { address: 'terraform_data.cluster', actions: ['create'] },
            ],
          },
        },
      },
    });
    const summary = await dialog.findByTestId('plan-summary');
    expect(summary).toHaveTextContent(
      'Plan: 1 to add, 0 to change, 0 to destroy',
    );
    expect(summary).toHaveTextContent('terraform_data.cluster create');
    expect(progress).toHaveTextContent(
      "Nothing is built yet. Review the plan, then Apply it from the cluster's panel",
    );
    expect(progress).not.toHaveTextContent(/Stuck|NoConnection/);
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
