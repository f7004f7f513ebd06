import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { COLUMNS, type Column } from './columns';

const useStyles = makeStyles(theme => ({
  footer: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: theme.spacing(2),
    marginTop: theme.spacing(1),
  },
}));

function hiddenNote(shown: Column[]) {
  const labels = COLUMNS.filter(c => !shown.includes(c)).map(c => c.label);
  return `Not shown at this window width: ${labels.join(
    ', ',
  )}. Each cluster's panel has them: open a cluster by its name.`;
}

export interface ClustersTableFooterProps {
  columns: Column[];
  loaded: number;
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}

/** The columns left out at this width, how many rows are loaded, and the next page on demand. */
export const ClustersTableFooter = (props: ClustersTableFooterProps) => {
  const classes = useStyles();
  const { columns, loaded, total, hasMore, loadingMore, onLoadMore } = props;
  return (
    <>
      {columns.length < COLUMNS.length && (
        <Typography
          variant="caption"
          color="textSecondary"
          component="p"
          data-testid="hidden-columns"
        >
          {hiddenNote(columns)}
        </Typography>
      )}
      <div className={classes.footer}>
        <Typography
          variant="body2"
          color="textSecondary"
          data-testid="cluster-loaded"
        >
          {hasMore
            ? `${loaded} of ${total} loaded: scrolling down loads more`
            : `All ${total} loaded`}
        </Typography>
        {hasMore && (
          <Button size="small" disabled={loadingMore} onClick={onLoadMore}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </Button>
        )}
      </div>
    </>
  );
};
