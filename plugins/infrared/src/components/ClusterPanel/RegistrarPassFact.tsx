import Typography from '@material-ui/core/Typography';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { RelativeTime } from '../RelativeTime';

type Discovered = NonNullable<ClusterView['discovered']>;

/** What each outcome means, in the page's words. */
const OUTCOMES: Record<NonNullable<Discovered['lastPass']>['outcome'], string> =
  {
    registered: 'Registered: its Argo CD Secret was created',
    updated: 'Updated: its Argo CD Secret was rewritten',
    unchanged: 'Unchanged: its Argo CD Secret is up to date',
    skipped: 'Skipped: not registered in Argo CD',
    failed: 'Failed: the next pass tries again',
    removed: 'Removed: its Argo CD Secret was deleted',
  };

/**
 * The "Registrar's last pass" fact of a discovered child: the outcome, when, and why (the reason
 * code and its sentence) when it was skipped or failed.
 */
export const RegistrarPassFact = ({
  discovered,
}: {
  discovered: Discovered;
}) => {
  const pass = discovered.lastPass;
  if (!pass) {
    return (
      <>
        Not known to this backend: the registrar passes on the replica that
        holds its Lease, and none has passed here since the backend started.
      </>
    );
  }
  return (
    <div data-testid="registrar-pass">
      <span>{OUTCOMES[pass.outcome] ?? pass.outcome}</span>
      {', '}
      <RelativeTime iso={pass.at} />
      {pass.since !== pass.at && (
        <>
          {' (the same since '}
          <RelativeTime iso={pass.since} />)
        </>
      )}
      {pass.reason && (
        <Typography variant="body2" component="div">
          Reason: <code>{pass.reason}</code>
        </Typography>
      )}
      {pass.message && (
        <Typography variant="body2" component="div" color="textSecondary">
          {pass.message}
        </Typography>
      )}
    </div>
  );
};

/** Under the conditions of a discovered child: what its conditions are and are not. */
export const DiscoveredConditionsNote = () => (
  <Typography variant="body2" color="textSecondary">
    A discovered child has no Cluster resource: its Registered condition comes
    from the registrar's last pass. Infrared does not connect to it, so it has
    no Connected condition; Argo CD does (see "Argo CD sees this cluster").
  </Typography>
);
