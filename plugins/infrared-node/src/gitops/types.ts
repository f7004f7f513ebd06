/**
 * One change to the gitops repository, identified by a stable key (for example `register-cluster-foo`).
 *
 * @public
 */
export interface GitopsChange {
  /** Idempotency key: one branch / pull request per key. */
  key: string;
  title: string;
  body: string;
  /** Files to write, by repository-relative path (forward slashes, no leading slash). */
  files: Record<string, string>;
  /** Repository-relative paths to remove. */
  deletions?: string[];
}

/**
 * A pull request of a {@link GitopsPublishResult}.
 *
 * @public
 */
export interface GitopsPullRequest {
  number?: number;
  url: string;
}

/**
 * What {@link GitopsPublisher.publish} did with a change.
 *
 * @public
 */
export interface GitopsPublishResult {
  /** Where a human can see the change: the pull request, or the commit when nothing had to change. */
  url: string;
  /**
   * `merged`: the commit on the default branch that contains the change. `open` / `closed`: the head commit
   * of the pull request.
   */
  commit: string;
  /**
   * `merged`: the change is on the default branch. `open`: the pull request waits (the repository requires
   * reviews or checks, or auto-merge is off); pass it back as `pending` on a later publish. `closed`: a human
   * closed the pull request without merging it.
   */
  state: 'merged' | 'open' | 'closed';
  /** `state === 'merged'`. */
  merged: boolean;
  pullRequest?: GitopsPullRequest;
}

/**
 * Options of {@link GitopsPublisher.publish}.
 *
 * @public
 */
export interface GitopsPublishOptions {
  /** The pull request a previous publish left open: check it instead of opening a new one. */
  pending?: GitopsPullRequest;
}

/**
 * What the UI shows about the gitops repository.
 *
 * @public
 */
export interface GitopsRepoDescription {
  type: string;
  /** The URL Argo CD clones (the Application's source.repoURL). */
  repoUrl: string;
  defaultBranch: string;
  /** Prefix to which a repository path is appended to browse a file, when the repository has a web UI. */
  fileUrlPrefix?: string;
}

/**
 * Changes the platform's gitops repository by (real or local) pull request.
 *
 * @public
 */
export interface GitopsPublisher {
  publish(
    change: GitopsChange,
    options?: GitopsPublishOptions,
  ): Promise<GitopsPublishResult>;
  describe(): Promise<GitopsRepoDescription>;
  /**
   * Ends what the publisher keeps running between publishes (a process, a connection) once the
   * publishes under way are done; a publish after it fails. The backend calls it when it stops.
   */
  close?(): Promise<void>;
}
