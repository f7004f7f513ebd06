import { useState } from 'react';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import {
  approvalRefusalText,
  zoneApprovalConflict,
  type ZonePlacementView,
} from '@infrared-clusters/plugin-infrared-common';

export interface ZoneApprovalProps {
  zone: ZonePlacementView;
  /** The caller may approve this Product's zones (the placement's `can.approveZones`). */
  mayApprove: boolean;
  /** The Product's org, for the reason a caller may not approve. */
  org?: string;
  onApprove: (release: string, zone: string) => Promise<void>;
  onError: (message: string | undefined) => void;
}

/**
 * A zone's approval in the latest Release: who approved it and when, or, while it awaits approval,
 * the Approve button (disabled with the reason for callers who may not approve). Which zone can be
 * approved and who may are -common's rules, the ones the API applies.
 */
export const ZoneApproval = ({
  zone,
  mayApprove,
  org,
  onApprove,
  onError,
}: ZoneApprovalProps) => {
  const [approving, setApproving] = useState(false);
  const release = zone.release;
  if (!release) return null;
  if (release.approvedBy) {
    return (
      <Typography
        variant="caption"
        component="p"
        data-testid={`approved-by-${zone.name}`}
        title={release.approvedAt}
      >
        Approved by {release.approvedBy}
      </Typography>
    );
  }
  if (!release.phase) return null;
  const approvable = !zoneApprovalConflict(release.name, zone.name, {
    phase: release.phase,
    approvedBy: release.approvedBy,
  });
  if (!approvable) return null;
  const refusal = mayApprove ? undefined : approvalRefusalText(org);
  const approve = async () => {
    setApproving(true);
    onError(undefined);
    try {
      await onApprove(release.name, zone.name);
    } catch (e) {
      onError(
        `Could not approve ${zone.name} for Release ${release.name}: ${
          (e as Error).message
        }`,
      );
    } finally {
      setApproving(false);
    }
  };
  return (
    <>
      {/* a disabled button shows no title: the span carries it */}
      <span title={refusal} style={{ display: 'inline-block', marginTop: 4 }}>
        <Button
          size="small"
          variant="contained"
          color="primary"
          disabled={!!refusal || approving}
          onClick={approve}
          aria-label={`Approve ${zone.name} for Release ${release.name}`}
        >
          Approve
        </Button>
      </span>
      {refusal && (
        <Typography
          variant="caption"
          component="p"
          color="textSecondary"
          data-testid={`approval-refusal-${zone.name}`}
        >
          {`Only ${refusal.replace(/^only /, '')}.`}
        </Typography>
      )}
    </>
  );
};
