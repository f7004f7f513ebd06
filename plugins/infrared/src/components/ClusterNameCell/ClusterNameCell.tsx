import Chip from '@material-ui/core/Chip';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';

// Static classes, not Box: a row's Box props would each build a style sheet per row on first render.
const useStyles = makeStyles(theme => ({
  discovered: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    marginTop: theme.spacing(0.5),
  },
  // A button centres its text: a name on two lines starts at the left like the others. It breaks
  // only after a hyphen or a dot (the theme lets a cell break anywhere): the column is at least as
  // wide as the name's longest part, so a name is never cut (issue 23.5).
  name: { textAlign: 'left', wordBreak: 'normal', overflowWrap: 'normal' },
  // "from namespace k3k-sandbox" wraps between its words (never inside one): the column stays
  // narrow enough for the table to fit 1,280 px with every row shown (issue 23.5).
  namespace: { wordBreak: 'normal', overflowWrap: 'normal' },
}));

export interface ClusterNameCellProps {
  cluster: ClusterView;
  onOpen: (name: string) => void;
}

/** The name, which opens the cluster panel, and the discovered marker with its source namespace. */
export const ClusterNameCell = ({ cluster, onOpen }: ClusterNameCellProps) => {
  const classes = useStyles();
  return (
    <div>
      <Link
        component="button"
        variant="body2"
        onClick={() => onOpen(cluster.name)}
        aria-label={`Open cluster ${cluster.name}`}
        className={classes.name}
      >
        <strong>{cluster.name}</strong>
      </Link>
      {cluster.discovered && (
        <div className={classes.discovered}>
          <Chip size="small" variant="outlined" label="discovered" />
          <Typography
            variant="caption"
            color="textSecondary"
            className={classes.namespace}
          >
            &nbsp;from namespace {cluster.discovered.sourceNamespace}
          </Typography>
        </div>
      )}
    </div>
  );
};
