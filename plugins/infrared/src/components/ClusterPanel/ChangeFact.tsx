import type { CSSProperties } from 'react';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import { CopyTextButton } from '@backstage/core-components';
import type { PullRequestRef } from '@infrared-clusters/plugin-infrared-common';
import { changeSummary } from '../../lib/changeSummary';

const NOWRAP: CSSProperties = { whiteSpace: 'nowrap' };

const BREAK: CSSProperties = { overflowWrap: 'anywhere' };

/** Where a local repository lives, and the git command that shows the change there. */
const LocalRepository = ({
  local,
}: {
  local: { path: string; command?: string };
}) => (
  <Typography
    variant="body2"
    component="span"
    display="block"
    data-testid="change-local"
  >
    in the local repository <code style={BREAK}>{local.path}</code>
    {local.command && (
      <>
        ; read it with <code style={BREAK}>{local.command}</code>
        <CopyTextButton
          text={local.command}
          tooltipText="Copied"
          aria-label="Copy the git command"
        />
      </>
    )}
  </Typography>
);

/**
 * The gitops change as a user can act on it: `pull request #7` (a link when it is on the web),
 * `commit 0123abc on main`, and whether it still waits to be merged. For a local repository (no
 * web page), where it lives and how to read the change: `git -C <path> show <commit>`.
 */
export const ChangeFact = ({
  pullRequest,
}: {
  pullRequest?: PullRequestRef;
}) => {
  const change = changeSummary(pullRequest);
  if (!change) return <>—</>;
  if (change.href) {
    return (
      <Link href={change.href} target="_blank" rel="noopener noreferrer">
        Open the change
      </Link>
    );
  }
  const { pullRequest: pr, commit, branch, merged, local } = change;
  return (
    <span data-testid="change-fact">
      {pr &&
        (pr.href ? (
          <Link
            href={pr.href}
            target="_blank"
            rel="noopener noreferrer"
            style={NOWRAP}
          >
            {pr.label}
          </Link>
        ) : (
          <span style={NOWRAP}>{pr.label}</span>
        ))}
      {pr && commit && ', '}
      {commit && (
        <span style={NOWRAP}>
          commit <code title={commit.full}>{commit.short}</code>
        </span>
      )}
      {branch && (
        <span style={NOWRAP}>
          {' '}
          on <code>{branch}</code>
        </span>
      )}
      {merged === false && ' (not merged yet)'}
      {local && <LocalRepository local={local} />}
    </span>
  );
};
