import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { gitopsLink } from '../../lib/gitopsLink';
import { BreakableText } from '../BreakableText';

// Wraps after a `/` when the column is narrow, never inside a path segment.
const PATH = { wordBreak: 'normal', overflowWrap: 'break-word' } as const;

export interface GitopsPathCellProps {
  cluster: Pick<ClusterView, 'gitopsPath' | 'pullRequest'>;
}

/** The app-of-apps file in the gitops repo, linked to its pull request or commit when that is on the web. */
export const GitopsPathCell = ({ cluster }: GitopsPathCellProps) => {
  const link = gitopsLink(cluster);
  if (!link) return <Typography variant="body2">—</Typography>;
  const text = (
    <Typography variant="body2" component="span" style={PATH}>
      <BreakableText text={link.label} wholeParts />
    </Typography>
  );
  if (!link.href) return <span title={link.title}>{text}</span>;
  return (
    <Link
      href={link.href}
      target="_blank"
      rel="noopener noreferrer"
      title={link.title}
    >
      {text}
    </Link>
  );
};
