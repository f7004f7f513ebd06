import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';

export interface GitopsLink {
  /** What to show: the gitops path, or the pull request / commit when there is no path. */
  label: string;
  /** Where it links to: only web URLs (a local repository's file:// URL is shown, not linked). */
  href?: string;
  /** What the link is, for its title. */
  title?: string;
}

function isWebUrl(url: string | undefined): url is string {
  return !!url && /^https?:\/\//i.test(url);
}

/** The gitops path of a cluster, linked to its pull request (or commit) when the status has a web URL. */
export function gitopsLink(
  cluster: Pick<ClusterView, 'gitopsPath' | 'pullRequest'>,
): GitopsLink | undefined {
  const pr = cluster.pullRequest;
  if (!cluster.gitopsPath && !pr) return undefined;
  let what = 'the change';
  if (pr?.number) what = `pull request #${pr.number}`;
  else if (pr?.commit) what = `commit ${pr.commit.slice(0, 12)}`;
  const label = cluster.gitopsPath ?? what;
  if (isWebUrl(pr?.url)) return { label, href: pr!.url, title: `Open ${what}` };
  return { label, title: pr?.url ? `${what}: ${pr.url}` : undefined };
}
