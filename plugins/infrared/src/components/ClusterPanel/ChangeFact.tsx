import type { CSSProperties } from 'react';
import Link from '@material-ui/core/Link';
import type { PullRequestRef } from '@infrared-clusters/plugin-infrared-common';
import { changeSummary } from '../../lib/changeSummary';

const NOWRAP: CSSProperties = { whiteSpace: 'nowrap' };

/**
 * The gitops change as a user can act on it: `pull request #7` (a link when it is on the web),
 * `commit 0123abc on main`, and whether it still waits to be merged. Never a local file path.
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
  const { pullRequest: pr, commit, branch, merged } = change;
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
    </span>
  );
};
