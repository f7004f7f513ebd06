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
      'tfstate-default-cluster-built-1 in namespace infrared',
    );
  });

  it('says nothing of cloud resources for a registered cluster', async () => {
    state.clusters = [registered('plain-1')];
    renderPage();
    const dialog = await removeDialog('plain-1');
    expect(dialog.queryByTestId('stays-cloud')).toBeNull();
  });
});
