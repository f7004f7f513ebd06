import { screen, waitFor } from '@testing-library/react';
import { setUpFakeApi } from '../../__testUtils__/fakeApi';
import { management } from '../../__testUtils__/fixtures';
import { renderPage } from '../../__testUtils__/renderPage';

jest.setTimeout(60_000);

const { state } = setUpFakeApi();

describe('/clusters?register=<name> for one who may not register', () => {
  it('opens nothing for one who may not register', async () => {
    state.clusters = [management];
    renderPage({ at: '/clusters?register=edge-demo', allow: false });
    await screen.findByTestId('cluster-row-infrared-mgmt');
    // a file of its own: usePermission's cache is shared by the tests of a file, and an earlier
    // test's allow would open the form before this test's own decision comes
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
