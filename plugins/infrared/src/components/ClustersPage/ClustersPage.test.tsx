import { renderInTestApp } from '@backstage/frontend-test-utils';
import { screen } from '@testing-library/react';
import { ClustersPage } from './ClustersPage';

describe('ClustersPage', () => {
  it('shows its title and what it will list', async () => {
    await renderInTestApp(<ClustersPage />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'Clusters' }),
    ).toBeInTheDocument();
    expect(screen.getByText('No clusters to show yet')).toBeInTheDocument();
  });
});
