import { EmptyState } from '@backstage/core-components';

export interface NoClustersProps {
  canRegister: boolean;
}

/** The API answered with no cluster at all. */
export const NoClusters = ({ canRegister }: NoClustersProps) => (
  <EmptyState
    missing="data"
    title="No clusters yet"
    description={`The backend registers the management cluster when it starts: if it is not listed, check the backend's logs for the infrared plugin. ${
      canRegister
        ? 'Use "Register a workload cluster" above to have Argo CD deploy to another cluster.'
        : 'A platform admin can register workload clusters.'
    }`}
  />
);
