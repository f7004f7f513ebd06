import { useState } from 'react';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';

export interface AllowClusterButtonProps {
  org: string;
  cluster: string;
  onAllow: (org: string, cluster: string) => Promise<void>;
  onError: (message: string | undefined) => void;
}

/**
 * "Allow <org> to use <cluster>": a platform admin's one click from the card, confirmed in a dialog
 * that names the org and the cluster, since the change applies at once to every Product of the org.
 */
export const AllowClusterButton = ({
  org,
  cluster,
  onAllow,
  onError,
}: AllowClusterButtonProps) => {
  const [open, setOpen] = useState(false);
  const [allowing, setAllowing] = useState(false);
  const allow = async () => {
    setAllowing(true);
    onError(undefined);
    try {
      await onAllow(org, cluster);
      setOpen(false);
    } catch (e) {
      setOpen(false);
      onError(
        `Could not allow ${org} to use ${cluster}: ${(e as Error).message}`,
      );
    } finally {
      setAllowing(false);
    }
  };
  const title = `Allow org ${org} to use cluster ${cluster}?`;
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        color="primary"
        disabled={allowing}
        onClick={() => setOpen(true)}
        style={{ marginTop: 4 }}
      >
        Allow {org} to use {cluster}
      </Button>
      <Dialog
        open={open}
        onClose={() => !allowing && setOpen(false)}
        aria-labelledby="allow-cluster-title"
      >
        <DialogTitle id="allow-cluster-title">{title}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            This adds cluster {cluster} to org {org}&apos;s cluster allowlist.
            It applies at once: every Product of {org} may then place zones on{' '}
            {cluster}, and the release gate may promote to it. The change is
            audited (who, and the allowlist before and after). Take it back by
            unticking {org} under Orgs allowed on {cluster}&apos;s panel.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={allowing}>
            Cancel
          </Button>
          <Button
            color="primary"
            variant="contained"
            onClick={allow}
            disabled={allowing}
          >
            Allow {org}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
};
