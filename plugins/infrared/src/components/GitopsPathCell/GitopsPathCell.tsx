import type { CSSProperties } from 'react';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { gitopsLink } from '../../lib/gitopsLink';
import { BreakableText } from '../BreakableText';

// Out of the table: wraps after a `/` when the room is narrow, never inside a path segment.
const PATH: CSSProperties = { wordBreak: 'normal', overflowWrap: 'break-word' };

// The file name on the second line, whole (not even broken at its hyphens): the column is at least
// as wide as it, so it is never clipped.
const FILE: CSSProperties = {
  display: 'block',
  whiteSpace: 'nowrap',
};
// The folder on the first line, cut with an ellipsis at the column's edge (the whole path is the
// cell's title): `maxWidth: 0` keeps it out of the column's width, `minWidth: 100%` fills the cell.
const FOLDER: CSSProperties = {
  display: 'block',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  maxWidth: 0,
  minWidth: '100%',
};

/** A path's folder (with its final `/`) and its file name. */
export function splitPath(path: string): { folder: string; file: string } {
  const at = path.lastIndexOf('/', path.length - 2);
  return at < 0
    ? { folder: '', file: path }
    : { folder: path.slice(0, at + 1), file: path.slice(at + 1) };
}

export interface GitopsPathCellProps {
  cluster: Pick<ClusterView, 'gitopsPath' | 'pullRequest'>;
  /**
   * In the Clusters table: two lines, the folder (cut with an ellipsis) then the file name.
   * Elsewhere (the panel, the register dialog) the path as it is, wrapping after its `/`.
   */
  twoLines?: boolean;
}

/** The path as it is, wrapping after its `/` (never inside a segment). */
const WholePath = ({ label }: { label: string }) => (
  <Typography variant="body2" component="span" style={PATH}>
    <BreakableText text={label} wholeParts />
  </Typography>
);

/** The path on two lines: its folder, cut with an ellipsis, then the file name, whole. */
const TwoLines = ({ label }: { label: string }) => {
  const { folder, file } = splitPath(label);
  return (
    <span data-testid="gitops-path">
      {folder && (
        <Typography
          variant="caption"
          component="span"
          color="textSecondary"
          style={FOLDER}
          data-testid="gitops-path-folder"
        >
          {folder}
        </Typography>
      )}
      <Typography
        variant="body2"
        component="span"
        style={FILE}
        data-testid="gitops-path-file"
      >
        {file}
      </Typography>
    </span>
  );
};

/**
 * The app-of-apps file in the gitops repo, linked to its pull request or commit when that is on the
 * web. In the table (`twoLines`): at most two lines, its folder (cut with an ellipsis when the
 * column is narrower; the whole path is on hover and is the link's name), then the file name,
 * whole, so the column is never narrower than the file name (issue 23.5).
 */
export const GitopsPathCell = ({ cluster, twoLines }: GitopsPathCellProps) => {
  const link = gitopsLink(cluster);
  if (!link) return <Typography variant="body2">—</Typography>;
  const title = twoLines
    ? [link.label, link.title].filter(Boolean).join(' — ')
    : link.title;
  const text = twoLines ? (
    <TwoLines label={link.label} />
  ) : (
    <WholePath label={link.label} />
  );
  if (!link.href) {
    return <span title={title}>{text}</span>;
  }
  return (
    <Link
      href={link.href}
      target="_blank"
      rel="noopener noreferrer"
      title={title}
      aria-label={twoLines ? link.label : undefined}
    >
      {text}
    </Link>
  );
};
