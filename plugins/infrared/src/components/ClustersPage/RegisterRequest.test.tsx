import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(60_000);

const { state } = setUpFakeApi();

describe('/clusters?register=<name> (the placement card\'s "Register it")', () => {
  it('opens the register form with the name filled in, and closing it leaves /clusters', async () => {
    state.clusters = [management];
    renderPage({ at: '/clusters?register=edge-demo' });
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByLabelText('Name')).toHaveValue('edge-demo');
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // opened again by hand, the form starts empty
    await userEvent.click(
      screen.getByRole('button', { name: 'Register a workload cluster' }),
    );
    const again = within(await screen.findByRole('dialog'));
    expect(again.getByLabelText('Name')).toHaveValue('');
  });
});
