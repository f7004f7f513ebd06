import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import App from './App';

describe('App', () => {
  it('shows the Clusters nav item after guest sign-in', async () => {
    process.env = {
      NODE_ENV: 'test',
      APP_CONFIG: [
        {
          data: {
            app: { title: 'Test' },
            backend: { baseUrl: 'http://localhost:7007' },
          },
          context: 'test',
        },
      ] as any,
    };
    // No auth backend runs here: accept the sign-in page's offer of a frontend-only guest.
    jest.spyOn(window, 'confirm').mockReturnValue(true);
    jest.spyOn(console, 'warn').mockImplementation(() => {});

    render(App.createRoot());
    await userEvent.click(
      await screen.findByRole('button', { name: 'Enter' }, { timeout: 50_000 }),
    );

    expect(
      await screen.findByRole(
        'link',
        { name: /Clusters/ },
        { timeout: 50_000 },
      ),
    ).toHaveAttribute('href', '/clusters');
  }, 120_000);
});
