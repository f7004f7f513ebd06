import Button from '@material-ui/core/Button';
import FormControl from '@material-ui/core/FormControl';
import InputAdornment from '@material-ui/core/InputAdornment';
import InputLabel from '@material-ui/core/InputLabel';
import MenuItem from '@material-ui/core/MenuItem';
import Select from '@material-ui/core/Select';
import TextField from '@material-ui/core/TextField';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import RefreshIcon from '@material-ui/icons/Refresh';
import SearchIcon from '@material-ui/icons/Search';
import { makeStyles } from '@material-ui/core/styles';
import { STATUS_FILTERS, StatusFilter } from '../../lib/filterClusters';

export interface ClustersToolbarProps {
  text: string;
  onText: (text: string) => void;
  status: StatusFilter;
  onStatus: (status: StatusFilter) => void;
  /** The Organization whose allowlist the list is limited to. */
  org?: string;
  /** The Organizations to pick from (none: no org filter is offered). */
  orgs: string[];
  onOrg: (org?: string) => void;
  /** How many clusters match the search and filters. */
  shown: number;
  /** How many clusters there are in all. */
  total: number;
  /** Clusters still registering: the list refreshes on its own while there are any. */
  inProgress: number;
  pollIntervalMs: number;
  onRefresh: () => void;
}

const useStyles = makeStyles(theme => ({
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: 16,
    marginBottom: theme.spacing(2),
  },
  spacer: { flexGrow: 1 },
}));

const ALL_ORGS = '';

/** Org filter: the clusters an Organization may use (its allowlist). */
const OrgFilter = (
  props: Pick<ClustersToolbarProps, 'org' | 'orgs' | 'onOrg'>,
) => (
  <FormControl variant="outlined" size="small" style={{ minWidth: 160 }}>
    <InputLabel id="infrared-org-filter">Org</InputLabel>
    <Select
      labelId="infrared-org-filter"
      label="Org"
      value={props.org ?? ALL_ORGS}
      onChange={e => props.onOrg((e.target.value as string) || undefined)}
      SelectDisplayProps={{ 'aria-label': 'Org filter' } as any}
    >
      <MenuItem value={ALL_ORGS}>All orgs</MenuItem>
      {/* an org in the URL that is not (or not yet) listed stays selectable */}
      {[...new Set([...props.orgs, ...(props.org ? [props.org] : [])])].map(
        name => (
          <MenuItem key={name} value={name}>
            {name}
          </MenuItem>
        ),
      )}
    </Select>
  </FormControl>
);

/**
 * Search, status and org filters (the backend answers them), how many clusters match, and whether
 * the list refreshes on its own.
 */
export const ClustersToolbar = (props: ClustersToolbarProps) => {
  const classes = useStyles();
  const seconds = Math.round(props.pollIntervalMs / 100) / 10;
  return (
    <div className={classes.toolbar}>
      <TextField
        label="Filter"
        placeholder="name, provider, region, reason…"
        variant="outlined"
        size="small"
        value={props.text}
        onChange={e => props.onText(e.target.value)}
        inputProps={{ 'aria-label': 'Filter clusters' }}
        InputProps={{
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        }}
      />
      <FormControl variant="outlined" size="small" style={{ minWidth: 180 }}>
        <InputLabel id="infrared-status-filter">Status</InputLabel>
        <Select
          labelId="infrared-status-filter"
          label="Status"
          value={props.status}
          onChange={e => props.onStatus(e.target.value as StatusFilter)}
          SelectDisplayProps={{ 'aria-label': 'Status filter' } as any}
        >
          {STATUS_FILTERS.map(f => (
            <MenuItem key={f.value} value={f.value}>
              {f.label}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      {(props.orgs.length > 0 || props.org) && <OrgFilter {...props} />}
      <Typography
        variant="body2"
        color="textSecondary"
        data-testid="cluster-count"
      >
        {props.shown === props.total
          ? `${props.total} clusters`
          : `${props.shown} of ${props.total} clusters`}
      </Typography>
      <div className={classes.spacer} />
      {props.inProgress > 0 && (
        <Tooltip title="Connected or Registered is not True yet: the list reloads on its own until they are">
          <Typography variant="body2" color="textSecondary">
            {props.inProgress} in progress: refreshing every {seconds} s
          </Typography>
        </Tooltip>
      )}
      <Button
        size="small"
        startIcon={<RefreshIcon />}
        onClick={props.onRefresh}
      >
        Refresh
      </Button>
    </div>
  );
};
