import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { registered } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(30_000);

const { state } = setUpFakeApi();

async function removeDialog(name: string) {
  await userEvent.click(
    await screen.findByRole('button', { name: `Open cluster ${name}` }),
  );
  const panel = within(
    await screen.findByRole('region', { name: `Cluster ${name}` }),
  );
  await userEvent.click(panel.getByRole('button', { name: 'Remove' }));
  return within(
    await screen.findByRole('dialog', { name: `Remove cluster ${name}?` }),
  );
}

describe('Remove a cluster built with OpenTofu', () => {
  it('says the cloud resources are not destroyed', async () => {
    state.clusters = [
      registered('built-1', {
        template: { module: 'aws/k3s-node', version: 'v0.2.3' },
        provision: { action: 'apply' },
      }),
    ];
    renderPage();
    const dialog = await removeDialog('built-1');
    expect(dialog.getByTestId('stays-cloud')).toHaveTextContent(
      'the cloud resources OpenTofu built from template aws/k3s-node: removing the cluster does not destroy them, and they cost money until you destroy them',
    );
    expect(dialog.getByTestId('stays-cloud')).toHaveTextContent(
      "tfstate-default-cluster-built-1 in the OpenTofu Jobs' namespace (infrared.provisioning.namespace, default infrared-tofu)",
    );
  });

  it('no longer says "run the destroy action first" once the destroy succeeded (issue 23.1)', async () => {
    state.clusters = [
      registered('built-4', {
        template: { module: 'local/demo-cluster', version: 'v1' },
        provision: {
          action: 'destroy',
          status: {
            action: 'destroy',
            generation: 3,
            job: 'tofu-built-4-3-destroy',
            phase: 'Succeeded',
          },
        },
      }),
    ];
    renderPage();
    const dialog = await removeDialog('built-4');
    const stays = dialog.getByTestId('stays-cloud');
    expect(stays).not.toHaveTextContent('run the destroy action first');
    expect(stays).not.toHaveTextContent('cost money');
    expect(stays).toHaveTextContent(
      "nothing OpenTofu built from template local/demo-cluster: its destroy (Job tofu-built-4-3-destroy) succeeded. What stays is the OpenTofu state Secret tfstate-default-cluster-built-4 in the OpenTofu Jobs' namespace",
    );
    expect(
      dialog.getByRole('button', { name: 'Remove cluster' }),
    ).toBeEnabled();
  });

  it('says nothing of cloud resources for a registered cluster', async () => {
    state.clusters = [registered('plain-1')];
    renderPage();
    const dialog = await removeDialog('plain-1');
    expect(dialog.queryByTestId('stays-cloud')).toBeNull();
  });
});

describe('Remove a cluster while OpenTofu applies or destroys it', () => {
  it.each<['apply' | 'destroy', 'Running' | 'Waiting', string]>([
    ['apply', 'Running', 'half built'],
    ['destroy', 'Waiting', 'half destroyed'],
  ])(
    'says the %s Job is %s, as the API does, and offers no Remove',
    async (action, phase, half) => {
      const job = `tofu-built-2-${action}`;
      state.clusters = [
        registered('built-2', {
          template: { module: 'aws/k3s-node', version: 'v0.2.3' },
          provision: {
            action,
            status: { action, generation: 2, job, phase },
          },
        }),
      ];
      renderPage();
      const dialog = await removeDialog('built-2');
      expect(dialog.getByTestId('build-in-progress')).toHaveTextContent(
        `cluster built-2 cannot be removed while its OpenTofu ${action} runs: Job ${job} is ${phase}. Removing the cluster now would leave cloud resources ${half} that nobody tracks`,
      );
      expect(
        dialog.getByRole('button', { name: 'Remove cluster' }),
      ).toBeDisabled();
    },
  );

  it('a running plan does not hold removal back', async () => {
    state.clusters = [
      registered('built-3', {
        template: { module: 'aws/k3s-node', version: 'v0.2.3' },
        provision: {
          action: 'plan',
          status: {
            action: 'plan',
            generation: 1,
            job: 'tofu-built-3-1-plan',
            phase: 'Running',
          },
        },
      }),
    ];
    renderPage();
    const dialog = await removeDialog('built-3');
    expect(dialog.queryByTestId('build-in-progress')).toBeNull();
    expect(
      dialog.getByRole('button', { name: 'Remove cluster' }),
    ).toBeEnabled();
  });
});
