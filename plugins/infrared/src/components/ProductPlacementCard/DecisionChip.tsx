import Chip from '@material-ui/core/Chip';
import type { PlacementDecision } from '@infrared-clusters/plugin-infrared-common';

const COLORS: Record<PlacementDecision, { background: string; color: string }> =
  {
    Promotes: { background: '#2e7d32', color: '#fff' },
    Waits: { background: '#ed6c02', color: '#fff' },
    Fails: { background: '#c62828', color: '#fff' },
  };

/** The placement decision as a colored chip, with its reason code for screen readers and tests. */
export const DecisionChip = ({
  zone,
  decision,
  reason,
}: {
  zone: string;
  decision: PlacementDecision;
  reason: string;
}) => (
  <Chip
    size="small"
    label={decision}
    style={COLORS[decision]}
    aria-label={`Decision for ${zone}: ${decision} (${reason})`}
    data-testid={`decision-${zone}`}
  />
);
