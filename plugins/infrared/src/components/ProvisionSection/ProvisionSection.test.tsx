import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { BASE, setUpFakeApi } from '../../__testUtils__/fakeApi';
import { registered } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { server, state } = setUpFakeApi();

const planned = (action: 'plan' | 'apply' = 'plan'): ClusterView =>
  registered('built-1', {
    connection: 'none',
    conditions: [],
    template: { module: 'local/demo-cluster', version: 'v1' },
    provision: {
      action,
      variables: { name: 'built-1' },
      status: {
        action: 'plan',
        generation: 1,
        job: 'tofu-built-1-1-plan',
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

async function openBuild(name: string) {
  await userEvent.click(
    await screen.findByRole('button', { name: `Open cluster ${name}` }),
  );
  const panel = within(
    await screen.findByRole('region', { name: `Cluster ${name}` }),
  );
  return within(panel.getByRole('group', { name: 'Build with OpenTofu' }));
}

describe("the cluster panel's Build with OpenTofu", () => {
  it('shows the last Job, the plan summary and its resources, and the log', async () => {
    state.clusters = [planned()];
    const logs: string[] = [];
    server.use(
      http.get(`${BASE}/v1/clusters/:name/provision/log`, ({ params }) => {
        logs.push(String(params.name));
        return HttpResponse.json({
          job: 'tofu-built-1-1-plan',
          log: 'Plan: 1 to add, 0 to change, 0 to destroy.\n',
        });
      }),
    );
    renderPage();
    const build = await openBuild('built-1');
    expect(build.getByTestId('provision-status')).toHaveTextContent(
      'Job tofu-built-1-1-plan (plan, generation 1): Succeeded',
    );
    expect(build.getByTestId('plan-summary')).toHaveTextContent(
      'Plan: 1 to add, 0 to change, 0 to destroy',
    );
    expect(build.getByTestId('plan-summary')).toHaveTextContent(
      'terraform_data.cluster create',
    );
    await userEvent.click(build.getByRole('button', { name: 'Show log' }));
    expect(await build.findByLabelText('OpenTofu log')).toHaveTextContent(
      'Plan: 1 to add, 0 to change, 0 to destroy.',
    );
    expect(logs).toEqual(['built-1']);
  });

  it('Apply says it is billable and sends the acknowledgement only once it is ticked', async () => {
    const withCredentials = planned();
    withCredentials.provision!.credentialsSecret = 'built-1-aws';
    state.clusters = [withCredentials];
    const bodies: unknown[] = [];
    server.use(
      http.put(
        `${BASE}/v1/clusters/:name/provision/action`,
        async ({ request }) => {
          const body = await request.json();
          bodies.push(body);
          return HttpResponse.json(planned('apply'));
        },
      ),
    );
    renderPage();
    const build = await openBuild('built-1');
    await userEvent.click(build.getByRole('button', { name: 'Apply' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Apply built-1?' }),
    );
    expect(dialog.getByTestId('billable-caution')).toHaveTextContent(
      'Apply creates billable resources: it creates real cloud resources in the account the credentials belong to, and they cost money until you destroy them.',
    );
    const apply = dialog.getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    await userEvent.click(
      dialog.getByRole('checkbox', {
        name: 'I understand that apply creates billable resources',
      }),
    );
    await userEvent.click(apply);
    await waitFor(() =>
      expect(bodies).toEqual([{ action: 'apply', acknowledgeBillable: true }]),
    );
  });

  it('Destroy needs the cluster name typed', async () => {
    state.clusters = [planned('apply')];
    const bodies: unknown[] = [];
    server.use(
      http.put(
        `${BASE}/v1/clusters/:name/provision/action`,
        async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json(planned('apply'));
        },
      ),
    );
    renderPage();
    const build = await openBuild('built-1');
    await userEvent.click(build.getByRole('button', { name: 'Destroy' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Destroy built-1?' }),
    );
    const destroy = dialog.getByRole('button', { name: 'Destroy' });
    await userEvent.type(
      dialog.getByLabelText('Type the cluster name to destroy it'),
      'built-2',
    );
    expect(destroy).toBeDisabled();
    await userEvent.clear(
      dialog.getByLabelText('Type the cluster name to destroy it'),
    );
    await userEvent.type(
      dialog.getByLabelText('Type the cluster name to destroy it'),
      'built-1',
    );
    await userEvent.click(destroy);
    await waitFor(() =>
      expect(bodies).toEqual([
        { action: 'destroy', acknowledgeBillable: true },
      ]),
    );
  });

  it("Apply of a template without credentials says what the template creates, in the template's words, and nothing of cloud accounts (issue 23.3)", async () => {
    state.clusters = [planned()];
    state.templates = [
      {
        module: 'local/demo-cluster',
        version: 'v1',
        title: 'Demo cluster (local API server)',
        description:
          'Starts another local Kubernetes API server through devenv and registers it; destroy stops it.',
        variables: [{ name: 'name', type: 'string' as const }],
      },
    ];
    renderPage();
    const build = await openBuild('built-1');
    await userEvent.click(build.getByRole('button', { name: 'Apply' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Apply built-1?' }),
    );
    const caution = dialog.getByTestId('billable-caution');
    await waitFor(() =>
      expect(caution).toHaveTextContent(
        'Apply runs the template Demo cluster (local API server) (local/demo-cluster@v1): Starts another local Kubernetes API server through devenv and registers it; destroy stops it.',
      ),
    );
    expect(caution).toHaveTextContent(
      'What it creates stays until you destroy it',
    );
    expect(caution).not.toHaveTextContent(/cloud|credentials|billable/);
    expect(
      dialog.getByRole('checkbox', { name: 'I understand what apply creates' }),
    ).toBeInTheDocument();
  });

  it("the open log follows the current Job: after Apply it shows the apply Job's log (issue 23.3)", async () => {
    state.clusters = [planned()];
    let current = { job: 'tofu-built-1-1-plan', log: 'Plan: 1 to add.\n' };
    server.use(
      http.get(`${BASE}/v1/clusters/:name/provision/log`, () =>
        HttpResponse.json(current),
      ),
    );
    renderPage({ pollIntervalMs: 30 });
    const build = await openBuild('built-1');
    await userEvent.click(build.getByRole('button', { name: 'Show log' }));
    expect(await build.findByLabelText('OpenTofu log')).toHaveTextContent(
      'Plan: 1 to add.',
    );
    // Apply: the cluster's last Job is now the apply, which runs and then succeeds
    const applying = planned('apply');
    applying.provision!.status = {
      action: 'apply',
      generation: 2,
      job: 'tofu-built-1-2-apply',
      phase: 'Running',
    };
    current = {
      job: 'tofu-built-1-2-apply',
      log: 'terraform_data.cluster: Creating...\n',
    };
    state.clusters = [applying];
    await waitFor(() =>
      expect(build.getByLabelText('OpenTofu log')).toHaveTextContent(
        'terraform_data.cluster: Creating...',
      ),
    );
    expect(
      build.getByText(/Log of Job tofu-built-1-2-apply/),
    ).toBeInTheDocument();
    // while it runs the log is read again: the end of the apply shows without a click
    current = {
      job: 'tofu-built-1-2-apply',
      log: 'Apply complete! Resources: 1 added, 0 changed, 0 destroyed.\n',
    };
    await waitFor(
      () =>
        expect(build.getByLabelText('OpenTofu log')).toHaveTextContent(
          'Apply complete!',
        ),
      { timeout: 5000 },
    );
  });

  it('after a successful destroy it says so and offers a plan or an apply of a new generation (issue 23.1)', async () => {
    const destroyed = planned('apply');
    destroyed.provision!.action = 'destroy';
    destroyed.provision!.status = {
      action: 'destroy',
      generation: 3,
      job: 'tofu-built-1-3-destroy',
      phase: 'Succeeded',
    };
    state.clusters = [destroyed];
    const bodies: unknown[] = [];
    server.use(
      http.put(
        `${BASE}/v1/clusters/:name/provision/action`,
        async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json(planned());
        },
      ),
    );
    renderPage();
    const build = await openBuild('built-1');
    expect(build.getByTestId('destroyed')).toHaveTextContent(
      'Destroyed: what the template built for built-1 is gone',
    );
    expect(build.queryByRole('button', { name: 'Destroy' })).toBeNull();
    expect(build.getByRole('button', { name: 'Apply' })).toBeEnabled();
    await userEvent.click(build.getByRole('button', { name: 'Plan' }));
    await waitFor(() =>
      expect(bodies).toEqual([expect.objectContaining({ action: 'plan' })]),
    );
  });

  it('a registered cluster has no Build section', async () => {
    state.clusters = [registered('plain-1')];
    renderPage();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Open cluster plain-1' }),
    );
    const panel = within(
      await screen.findByRole('region', { name: 'Cluster plain-1' }),
    );
    expect(
      panel.queryByRole('group', { name: 'Build with OpenTofu' }),
    ).toBeNull();
  });

  it('reads the list again after an action, so the panel shows it even when nothing else polls', async () => {
    // Registered and its plan done: nothing in progress, the page does not poll on its own
    const built = planned();
    built.conditions = registered('x').conditions;
    state.clusters = [built];
    server.use(
      http.put(`${BASE}/v1/clusters/:name/provision/action`, async () => {
        const applying: ClusterView = {
          ...built,
          provision: { ...built.provision!, action: 'apply' },
        };
        state.clusters = [applying];
        return HttpResponse.json(applying);
      }),
    );
    renderPage();
    const build = await openBuild('built-1');
    const group = () =>
      screen.getByRole('group', { name: 'Build with OpenTofu' });
    expect(group()).toHaveTextContent(/action plan/);
    const lists = () =>
      state.requests.filter(
        r => r.method === 'GET' && r.path === '/v1/clusters',
      ).length;
    const before = lists();
    await userEvent.click(build.getByRole('button', { name: 'Apply' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Apply built-1?' }),
    );
    await userEvent.click(dialog.getByRole('checkbox'));
    await userEvent.click(dialog.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(lists()).toBeGreaterThan(before));
    await waitFor(() => expect(group()).toHaveTextContent(/action apply/));
  });
});
