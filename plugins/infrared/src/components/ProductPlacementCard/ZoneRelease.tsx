import Typography from '@material-ui/core/Typography';
import {
  explainReleaseZonePhase,
  type ProductPlacementView,
  type ZonePlacementView,
} from '@infrared-clusters/plugin-infrared-common';
import { ZoneApproval } from './ZoneApproval';

const WRAP = { wordBreak: 'normal', overflowWrap: 'anywhere' } as const;

export interface ZoneReleaseProps {
  zone: ZonePlacementView;
  placement: ProductPlacementView;
  onApprove: (release: string, zone: string) => Promise<void>;
  onError: (message: string | undefined) => void;
}

/**
 * The zone in the latest Release: its phase and reason, the phase in words (what it waits for, who
 * acts next: -common's explainReleaseZonePhase), and its approval.
 */
export const ZoneRelease = ({
  zone,
  placement,
  onApprove,
  onError,
}: ZoneReleaseProps) => {
  if (!zone.release) {
    return (
      <Typography variant="body2" color="textSecondary">
        —
      </Typography>
    );
  }
  const { phase, reason, message } = zone.release;
  const words = phase ? explainReleaseZonePhase(phase, reason) : undefined;
  return (
    <>
      <Typography variant="body2" title={message}>
        {phase ?? 'not reached yet'}
      </Typography>
      {reason && (
        <Typography variant="caption" color="textSecondary">
          {reason}
        </Typography>
      )}
      {words && (
        <Typography
          variant="caption"
          component="p"
          style={{ marginTop: 4, ...WRAP }}
          data-testid={`phase-words-${zone.name}`}
        >
          Waits for {words.waitsFor}. Next: {words.next}.
        </Typography>
      )}
      <ZoneApproval
        zone={zone}
        mayApprove={placement.can.approveZones}
        org={placement.org?.name}
        onApprove={onApprove}
        onError={onError}
      />
    </>
  );
};
