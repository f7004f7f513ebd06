import { screen, within } from '@testing-library/react';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { ChangeFact } from './ChangeFact';

const COMMIT = '0123456789abcdef0123456789abcdef01234567';

describe('ChangeFact (issue 23.4)', () => {
  it('links the pull request on GitHub, and names no local repository', async () => {
    await renderInTestApp(
      <ChangeFact
        pullRequest={{
          url: 'https://github.com/acme/gitops/pull/7',
          number: 7,
          commit: COMMIT,
          merged: true,
          branch: 'main',
        }}
      />,
    );
    const fact = screen.getByTestId('change-fact');
    expect(
      within(fact).getByRole('link', { name: 'pull request #7' }),
    ).toHaveAttribute('href', 'https://github.com/acme/gitops/pull/7');
    expect(fact).toHaveTextContent(/^pull request #7, commit 0123456 on main$/);
    expect(screen.queryByTestId('change-local')).toBeNull();
  });

  it('for the local repository: where it lives and the git command that shows the change', async () => {
    await renderInTestApp(
      <ChangeFact
        pullRequest={{
          url: `file:///home/dev/infrared/.data/gitops.git#${COMMIT}`,
          number: 3,
          commit: COMMIT,
          merged: true,
          branch: 'main',
        }}
      />,
    );
    const fact = screen.getByTestId('change-fact');
    expect(within(fact).queryByRole('link')).toBeNull();
    const local = screen.getByTestId('change-local');
    expect(local).toHaveTextContent(
      `in the local repository /home/dev/infrared/.data/gitops.git; read it with git -C /home/dev/infrared/.data/gitops.git show ${COMMIT}`,
    );
    expect(
      screen.getByRole('button', { name: 'Copy the git command' }),
    ).toBeInTheDocument();
  });

  it('quotes a path the shell would split, and takes the commit from the URL when the status has none', async () => {
    await renderInTestApp(
      <ChangeFact
        pullRequest={{ url: `file:///srv/my%20repo.git#abcdef0123` }}
      />,
    );
    expect(screen.getByTestId('change-local')).toHaveTextContent(
      "in the local repository /srv/my repo.git; read it with git -C '/srv/my repo.git' show abcdef0123",
    );
  });
});
