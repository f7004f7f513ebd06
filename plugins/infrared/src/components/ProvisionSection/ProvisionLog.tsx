import { useEffect, useState } from 'react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/frontend-plugin-api';
import type { ProvisionStatus } from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../../api';

export interface ProvisionLogProps {
  cluster: string;
  /** The cluster's last Job: the log follows it. */
  status: ProvisionStatus;
  /** How often the log of a Job that runs is read again. */
  followMs?: number;
}

const isFinished = (phase: string) =>
  phase === 'Succeeded' || phase === 'Failed';

/**
 * "Show log": the last Job's log (credentials redacted by the backend), following the current
 * Job (issue 23.3): read again when the cluster's last Job or its phase changes (an Apply after
 * the plan shows the apply's log), and every `followMs` while it runs.
 */
export const ProvisionLog = ({
  cluster,
  status,
  followMs = 2000,
}: ProvisionLogProps) => {
  const api = useApi(infraredApiRef);
  const [open, setOpen] = useState(false);
  const [log, setLog] = useState<{ job: string; log: string }>();
  const [error, setError] = useState<string>();
  const { job, phase } = status;

  useEffect(() => {
    if (!open) return undefined;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const answer = await api.getProvisionLog(cluster);
        if (!live) return;
        setLog({ job: answer.job, log: answer.log });
        setError(undefined);
      } catch (e) {
        if (live) setError((e as Error).message);
      }
      if (live && !isFinished(phase)) timer = setTimeout(load, followMs);
    };
    load();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [api, open, cluster, job, phase, followMs]);

  return (
    <>
      <Button
        variant="outlined"
        size="small"
        onClick={() => setOpen(o => !o)}
        aria-expanded={open}
      >
        {open ? 'Hide log' : 'Show log'}
      </Button>
      {open && (
        <Box mt={1} width="100%" order={1}>
          {error && <Alert severity="error">{error}</Alert>}
          {log && (
            <Typography variant="caption" color="textSecondary">
              Log of Job {log.job}
              {log.job === job && !isFinished(phase) ? ' (running)' : ''}
            </Typography>
          )}
          <Box
            component="pre"
            aria-label="OpenTofu log"
            mt={0.5}
            p={1}
            style={{
              maxHeight: 320,
              overflow: 'auto',
              fontSize: 12,
              background: 'rgba(0,0,0,0.04)',
              whiteSpace: 'pre-wrap',
            }}
          >
            {log ? log.log || '(empty)' : 'Reading the log…'}
          </Box>
        </Box>
      )}
    </>
  );
};
