import { screen } from '@testing-library/react';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { GitopsPathCell, splitPath } from './GitopsPathCell';
import { ClusterNameCell } from '../ClusterNameCell';

const PATH =
  'registry/clusters/infrared-mgmt/components/cluster-edge-demo.yaml';

describe('GitopsPathCell at a laptop width (issue 23.5)', () => {
  it('splits a path into its folder and file name', () => {
    expect(splitPath(PATH)).toEqual({
      folder: 'registry/clusters/infrared-mgmt/components/',
      file: 'cluster-edge-demo.yaml',
    });
    expect(splitPath('cluster-a.yaml')).toEqual({
      folder: '',
      file: 'cluster-a.yaml',
    });
  });

  it('takes two lines: the folder, cut with an ellipsis and out of the column width, then the whole file name', async () => {
    await renderInTestApp(
      <GitopsPathCell
        cluster={{
          gitopsPath: PATH,
          pullRequest: {
            url: 'https://github.com/acme/gitops/pull/7',
            number: 7,
          },
        }}
        twoLines
      />,
    );
    const folder = screen.getByTestId('gitops-path-folder');
    expect(folder).toHaveTextContent(
      /^registry\/clusters\/infrared-mgmt\/components\/$/,
    );
    expect(folder).toHaveStyle({
      display: 'block',
      whiteSpace: 'nowrap',
      textOverflow: 'ellipsis',
      overflow: 'hidden',
      maxWidth: '0',
    });
    const file = screen.getByTestId('gitops-path-file');
    expect(file).toHaveTextContent(/^cluster-edge-demo\.yaml$/);
    // never broken inside, never clipped: the column is at least as wide as the file name
    expect(file).toHaveStyle({ display: 'block', whiteSpace: 'nowrap' });
    const link = screen.getByRole('link', { name: PATH });
    expect(link).toHaveAttribute(
      'href',
      'https://github.com/acme/gitops/pull/7',
    );
    expect(link).toHaveAttribute('title', `${PATH} — Open pull request #7`);
  });

  it("a local repository's path: the whole path on hover, no link", async () => {
    await renderInTestApp(
      <GitopsPathCell
        cluster={{
          gitopsPath: PATH,
          pullRequest: {
            url: 'file:///data/gitops.git#abcdef0',
            commit: 'abcdef0',
          },
        }}
        twoLines
      />,
    );
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByTestId('gitops-path').parentElement).toHaveAttribute(
      'title',
      `${PATH} — commit abcdef0: file:///data/gitops.git#abcdef0`,
    );
  });
});

describe('ClusterNameCell (issue 23.5)', () => {
  it('breaks a name only where a name may break, never letter by letter', async () => {
    await renderInTestApp(
      <ClusterNameCell
        cluster={{ name: 'edge-demo-eu-west-1' } as any}
        onOpen={() => {}}
      />,
    );
    expect(
      screen.getByRole('button', { name: 'Open cluster edge-demo-eu-west-1' }),
    ).toHaveStyle({ wordBreak: 'normal', overflowWrap: 'normal' });
  });
});
