/** The release gate's executor: reads with LISTs, plans each promoting Release, publishes, writes status. */
import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  ARGOCD_NAMESPACE,
  appProjectFacts,
  placementClusterFacts,
  zoneCollisions,
  type ReleaseResource,
} from '@infrared-clusters/plugin-infrared-common';
import {
  forEachLimited,
  isConflict,
  type ClusterApi,
  type PlacementKubeApi,
} from '@infrared-clusters/infrared-kube';
import type {
  GitopsChange,
  GitopsPublisher,
  GitopsRepoDescription,
} from '@infrared-clusters/plugin-infrared-node';
import {
  InvalidApplicationError,
  renderZoneApplication,
  zoneApplicationHolders,
  ZONE_LABEL,
} from './application';
import type { ApplicationValidator } from './argoModels';
import {
  InvalidZoneContentError,
  renderZoneContent,
  zoneContentPath,
} from './zoneContent';
import {
  isGated,
  planRelease,
  releaseRef,
  type GateWorld,
  type ReleasePlan,
} from './plan';
import {
  completePromotion,
  releaseStatusChanged,
  type PromotionOutcome,
} from './promotion';

export interface ReleaseGateOptions {
  kube: PlacementKubeApi;
  clusters: Pick<ClusterApi, 'list'>;
  publisher: GitopsPublisher;
  managementCluster: string;
  /** The AppProject of zone Applications. */
  project: string;
  logger: LoggerService;
  /** Argo CD's Application schema; default @kubernetes-models/argo-cd. */
  validate?: ApplicationValidator;
  /** Kubernetes' schema of the zone content's objects; default kubernetes-models. */
  validateContent?: ApplicationValidator;
  now?: () => Date;
}

export interface GatePassSummary {
  /** Releases in a gated phase. */
  releases: number;
  /** Zone changes published. */
  published: number;
  /** Release statuses written. */
  statusWrites: number;
  /** API requests the pass sent. */
  requests: number;
  durationMs: number;
}

/** The gitops change that promotes one zone of a Release: one key per Release and zone. */
export function promotionKey(release: ReleaseResource, zone: string): string {
  return `promote-${release.metadata.namespace}-${release.metadata.name}-${zone}`;
}

export class ReleaseGate {
  constructor(private readonly options: ReleaseGateOptions) {}

  /** One pass over every Release in a gated phase. */
  async pass(signal?: AbortSignal): Promise<GatePassSummary> {
    const { kube, logger } = this.options;
    const started = Date.now();
    const requestsBefore = kube.counter.total;
    const summary: GatePassSummary = {
      releases: 0,
      published: 0,
      statusWrites: 0,
      requests: 0,
      durationMs: 0,
    };
    const finish = () => ({
      ...summary,
      requests: kube.counter.total - requestsBefore,
      durationMs: Date.now() - started,
    });

    const releases = (await kube.listReleases()).filter(isGated);
    summary.releases = releases.length;
    if (!releases.length || signal?.aborted) return finish();

    const world = await this.observe();
    let repo: Promise<GitopsRepoDescription> | undefined;
    const describe = () => (repo ??= this.options.publisher.describe());

    await forEachLimited(
      releases,
      4,
      async release => {
        try {
          const plan = planRelease(release, world);
          let status = plan.status;
          if (plan.promote) {
            const outcome = await this.promote(plan, describe);
            if ('result' in outcome && !outcome.result.merged) {
              logger.info(
                `infrared: release ${releaseRef(release)} zone ${
                  plan.promote.zone.name
                }: ${outcome.result.state} ${outcome.result.url}`,
              );
            }
            if ('result' in outcome) summary.published++;
            status = completePromotion(
              status,
              plan.promote,
              outcome,
              world.now,
            );
          }
          if (releaseStatusChanged(release.status, status)) {
            await kube.patchReleaseStatus(
              release.metadata.namespace ?? '',
              release.metadata.name,
              {
                phase: status.phase,
                message: status.message,
                zones: status.zones,
              },
              release.metadata.resourceVersion,
            );
            summary.statusWrites++;
          }
        } catch (e) {
          const level = isConflict(e) ? 'debug' : 'warn';
          logger[level](
            `infrared: release gate: release ${releaseRef(release)}: ${
              (e as Error).message
            }`,
          );
        }
      },
      signal,
    );
    return finish();
  }

  /** Everything the planner needs, in five LISTs. */
  private async observe(): Promise<GateWorld> {
    const { kube, clusters } = this.options;
    const [products, orgs, clusterList, projects, applications] =
      await Promise.all([
        kube.listProducts(),
        kube.listOrganizations(),
        clusters.list(),
        kube.listAppProjects(ARGOCD_NAMESPACE),
        kube.listApplications(ARGOCD_NAMESPACE, ZONE_LABEL),
      ]);
    return {
      products: new Map(
        products.map(p => [`${p.metadata.namespace}/${p.metadata.name}`, p]),
      ),
      orgs,
      clusters: new Map(
        clusterList.map(c => [c.metadata.name, placementClusterFacts(c)]),
      ),
      appProjects: new Map(
        projects.map(p => [p.metadata.name, appProjectFacts(p)]),
      ),
      applications: new Map(applications.map(a => [a.metadata.name, a])),
      collisions: zoneCollisions(
        products,
        this.options.managementCluster,
        zoneApplicationHolders(applications),
      ),
      managementCluster: this.options.managementCluster,
      project: this.options.project,
      now: (this.options.now?.() ?? new Date()).toISOString(),
    };
  }

  private async promote(
    plan: ReleasePlan,
    describe: () => Promise<GitopsRepoDescription>,
  ): Promise<PromotionOutcome> {
    const { pending } = plan.promote!;
    try {
      const change = promotionChange(plan, await describe(), this.options);
      const result = await this.options.publisher.publish(
        change,
        pending ? { pending } : undefined,
      );
      return { result };
    } catch (e) {
      return {
        error: (e as Error).message,
        invalid:
          e instanceof InvalidApplicationError ||
          e instanceof InvalidZoneContentError,
      };
    }
  }
}

/**
 * The gitops change that promotes the plan's zone: the zone Application at its applicationPath and,
 * in the same change, what it syncs (zoneContent.ts) in the zone's directory. Throws
 * InvalidApplicationError or InvalidZoneContentError when a schema refuses them.
 */
export function promotionChange(
  plan: ReleasePlan,
  repo: Pick<GitopsRepoDescription, 'repoUrl' | 'defaultBranch'>,
  validators: Pick<ReleaseGateOptions, 'validate' | 'validateContent'> = {},
): GitopsChange {
  const { release, product } = plan;
  const { zone, placement } = plan.promote!;
  const version = release.status?.version || release.spec.version;
  const zoneRelease = {
    namespace: release.metadata.namespace ?? '',
    name: release.metadata.name,
    version: version || undefined,
    image: release.status?.image || undefined,
    commit: release.status?.commit || release.spec.commit || undefined,
  };
  const productRef = {
    namespace: product!.metadata.namespace ?? '',
    name: product!.metadata.name,
  };
  const text = renderZoneApplication(
    {
      product: productRef,
      zone,
      placement,
      release: zoneRelease,
      repoUrl: repo.repoUrl,
      branch: repo.defaultBranch,
    },
    validators.validate,
  );
  const contentPath = zoneContentPath(productRef.name, zone);
  const content = renderZoneContent(
    { product: productRef, zone, release: zoneRelease },
    validators.validateContent,
  );
  const what = `${productRef.name}${version ? ` ${version}` : ''}`;
  const { destination } = placement;
  return {
    key: promotionKey(release, zone.name),
    title: `Promote ${what} to zone ${zone.name}`,
    body: [
      `Release \`${releaseRef(release)}\` promotes zone \`${
        zone.name
      }\` of Product \`${productRef.namespace}/${productRef.name}\`.`,
      '',
      `- Application: \`${placement.applicationName}\` in \`${placement.applicationPath}\``,
      `- Content it syncs: \`${contentPath}\` (ConfigMap \`${productRef.name}-release\`, Service \`${productRef.name}\`)`,
      `- Destination: ${
        destination.name
          ? `cluster \`${destination.name}\``
          : `\`${destination.server}\``
      }, namespace \`${destination.namespace}\``,
      `- AppProject: \`${placement.project}\``,
      `- Placement: ${placement.decision}, ${placement.message}`,
    ].join('\n'),
    files: { [placement.applicationPath]: text, [contentPath]: content },
  };
}
