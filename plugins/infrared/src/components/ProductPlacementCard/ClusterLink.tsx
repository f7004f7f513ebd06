import { Link } from '@backstage/core-components';
import type { ClusterLinks } from '../../hooks/useClusterLinks';

/** A cluster's name, linked to its panel on the Clusters page (issue 23.4). */
export const ClusterLink = ({
  name,
  links,
}: {
  name: string;
  links: ClusterLinks;
}) => (
  <Link
    to={links.panel(name)}
    title={`Open the panel of cluster ${name}`}
    data-testid={`cluster-link-${name}`}
  >
    {name}
  </Link>
);
