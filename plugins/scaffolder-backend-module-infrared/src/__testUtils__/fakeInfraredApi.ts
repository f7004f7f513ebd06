import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { mockServices } from '@backstage/backend-test-utils';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import {
  InfraredApiError,
  validateRegisterClusterRequest,
  type ClusterTemplate,
  type ClusterView,
} from '@infrared-clusters/plugin-infrared-common';
import type { ClusterActionsApi, InfraredApiFor } from '../infraredApi';

/**
 * The Infrared API as the actions see it, in memory: it checks each POST with the API's own
 * validator (-common), refuses writes when told to (as the router's permission check does), and
 * answers GET from a script of views. It records who called.
 */
export class FakeInfraredApi implements ClusterActionsApi {
  readonly registered: Record<string, unknown>[] = [];
  readonly callers: BackstageCredentials[] = [];
  reads = 0;
  refuseWrites = false;
  /** Each GET answers the next view; the last one stays. */
  views: ClusterView[] = [];

  constructor(readonly templates: ClusterTemplate[] = []) {}

  readonly for: InfraredApiFor = credentials => {
    this.callers.push(credentials);
    return this;
  };

  async registerCluster(request: any): Promise<ClusterView> {
    if (this.refuseWrites) {
      throw new InfraredApiError(
        'Request failed with 403 Forbidden: only platform admins may register clusters (permission infrared.cluster.create)',
        403,
        'Forbidden',
      );
    }
    const validation = validateRegisterClusterRequest(request, {
      templates: this.templates,
    });
    if ('errors' in validation) {
      throw new InfraredApiError(
        `Request failed with 400 Bad Request: ${validation.errors
          .map(e => `${e.field}: ${e.message}`)
          .join('; ')}`,
        400,
        'Bad Request',
        validation.errors,
      );
    }
    this.registered.push(request);
    return {
      name: request.name,
      type: 'workload',
      connection: request.inCluster ? 'inCluster' : 'kubeconfig',
      conditions: [],
      createdAt: new Date().toISOString(),
    };
  }

  async getCluster(name: string): Promise<ClusterView> {
    const view = this.views[Math.min(this.reads, this.views.length - 1)];
    this.reads += 1;
    if (!view) {
      throw new InfraredApiError(
        `Request failed with 404 Not Found: cluster ${name} not found`,
        404,
        'Not Found',
      );
    }
    return view;
  }

  async listClusterTemplates(): Promise<ClusterTemplate[]> {
    return this.templates;
  }
}

/** A Cluster view with the given conditions (status True or False). */
export function clusterView(
  name: string,
  conditions: Record<string, 'True' | 'False'>,
  extra: Partial<ClusterView> = {},
): ClusterView {
  return {
    name,
    type: 'workload',
    connection: 'kubeconfig',
    createdAt: '2026-11-30T00:00:00Z',
    conditions: Object.entries(conditions).map(([type, status]) => ({
      type,
      status,
      reason: status === 'True' ? type : `Not${type}`,
      message: status === 'True' ? '' : `${type} is not done yet`,
      lastTransitionTime: '2026-11-30T00:00:00Z',
    })),
    ...extra,
  };
}

/**
 * A mock action context (scaffolder-node-test-utils) whose log lines are kept, for asserting that
 * no secret reaches them; `isDryRun` and the initiator are set here since createMockActionContext
 * does not take them.
 */
export function actionContext<I extends Record<string, any>>(options: {
  input: I;
  secrets?: Record<string, string>;
  isDryRun?: boolean;
  initiator?: BackstageCredentials;
}) {
  const logger = mockServices.logger.mock();
  const base = createMockActionContext<I>({
    input: options.input,
    secrets: options.secrets,
    logger,
  });
  const ctx = {
    ...base,
    isDryRun: options.isDryRun,
    ...(options.initiator && {
      getInitiatorCredentials: async () => options.initiator!,
    }),
  };
  const log = () =>
    JSON.stringify(
      (['debug', 'info', 'warn', 'error'] as const).map(
        level => (logger[level] as jest.Mock).mock.calls,
      ),
    );
  return { ctx, log };
}
