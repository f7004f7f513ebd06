import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  listDiscoveredClusters,
  type DiscoveredClustersOptions,
  type SecretLister,
} from '@infrared-clusters/infrared-registrar';
import type {
  GitopsChange,
  GitopsPublisher,
  GitopsPullRequest,
} from '@infrared-clusters/plugin-infrared-node';
import { registrationFiles } from '../gitops';

export interface RegistrarGitopsOptions {
  publisher: GitopsPublisher;
  /** The cluster whose Argo CD runs the app-of-apps (`infrared.managementCluster.name`). */
  managementCluster: string;
  /** Where the registrar's Secrets are listed (the management cluster's Secrets). */
  secrets: SecretLister;
  /** The registrar's target namespace, label prefix and managed-by value. */
  discovered: DiscoveredClustersOptions;
  logger: LoggerService;
}

/** The gitops change that registers (or, with `remove`, unregisters) one registrar child. */
export function childRegistrationChange(
  name: string,
  files: Record<string, string>,
  remove = false,
): GitopsChange {
  return remove
    ? {
        key: `register-child-${name}`,
        title: `Unregister child cluster ${name}`,
        body: `The registrar removed the Argo CD cluster Secret of the child cluster \`${name}\`: Infrared removes its registration files.`,
        files: {},
        deletions: Object.keys(files),
      }
    : {
        key: `register-child-${name}`,
        title: `Register child cluster ${name}`,
        body: `The registrar registered the child cluster \`${name}\` as an Argo CD cluster Secret: Infrared writes the same files as a Cluster's registration, so that Argo CD monitors it (the Application \`infrared-${name}\`).`,
        files,
      };
}

/**
 * After each registrar pass: publishes the registration files (the ones a Cluster's registration
 * writes, `registrationFiles`) of every child whose Argo CD Secret the registrar keeps (demoted ones
 * excluded: Argo CD does not see them), one change per child (`register-child-<name>`), and the
 * removal of those files for a child whose Secret is gone since an earlier pass of this backend.
 * A change already merged with the same files is not sent again; a pull request left open is
 * passed back as pending. Failures are logged; the next pass retries.
 */
export class RegistrarGitops {
  /** By child: the files last sent, and the pull request left open, if any. */
  private readonly sent = new Map<
    string,
    { files: string; merged: boolean; pending?: GitopsPullRequest }
  >();

  constructor(private readonly options: RegistrarGitopsOptions) {}

  async afterPass(): Promise<void> {
    const { publisher, managementCluster, secrets, discovered, logger } =
      this.options;
    const children = (await listDiscoveredClusters(secrets, discovered))
      .filter(c => c.state === 'active' && c.name !== managementCluster)
      .map(c => c.name);
    const repo = await publisher.describe();
    const filesOf = (clusterName: string) =>
      registrationFiles({
        clusterName,
        managementCluster,
        repoUrl: repo.repoUrl,
        branch: repo.defaultBranch,
      });
    const publish = async (name: string, remove: boolean) => {
      const files = filesOf(name);
      const fingerprint = remove ? '' : JSON.stringify(files);
      const last = this.sent.get(name);
      if (last?.merged && last.files === fingerprint) return;
      try {
        const result = await publisher.publish(
          childRegistrationChange(name, files, remove),
          last?.pending && last.files === fingerprint
            ? { pending: last.pending }
            : undefined,
        );
        if (remove && result.merged) {
          this.sent.delete(name);
          return;
        }
        this.sent.set(name, {
          files: fingerprint,
          merged: result.merged,
          ...(result.state === 'open' && result.pullRequest
            ? { pending: result.pullRequest }
            : {}),
        });
      } catch (e) {
        logger.warn(
          `infrared: could not publish the gitops ${
            remove ? 'removal' : 'registration'
          } of child cluster ${name}: ${(e as Error).message}`,
        );
      }
    };
    for (const name of children) await publish(name, false);
    // a child gone since an earlier pass (or its removal left open as a pull request)
    for (const name of [...this.sent.keys()]) {
      if (!children.includes(name)) await publish(name, true);
    }
  }
}
