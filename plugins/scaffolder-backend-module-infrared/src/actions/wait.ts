import {
  createTemplateAction,
  type TemplateAction,
} from '@backstage/plugin-scaffolder-node';
import type {
  WaitForClusterActionInput,
  WaitForClusterActionOutput,
} from './types';
import {
  findCondition,
  PROVISION_PHASES,
  type ClusterView,
} from '@infrared-clusters/plugin-infrared-common';
import type { InfraredApiFor } from '../infraredApi';
import { clusterName } from './fields';

export const WAIT_ACTION_ID = 'infrared:cluster:wait';

const DEFAULT_TIMEOUT_SECONDS = 300;
const MAX_TIMEOUT_SECONDS = 3600;

/** Polls often at first (a local cluster registers in seconds), then every 2 s. */
export const pollDelayMs = (elapsedMs: number) =>
  elapsedMs < 15_000 ? 500 : 2_000;

const examples = [
  {
    description:
      'Wait until the cluster is Registered in Argo CD, then link its gitops file',
    example: `steps:
  - id: registered
    action: ${WAIT_ACTION_ID}
    input:
      name: \${{ parameters.name }}
      timeoutSeconds: 120
output:
  text:
    - title: Argo CD server
      content: \${{ steps.registered.output.argoServer }}`,
  },
  {
    description: "Wait for a built cluster's plan Job to succeed",
    example: `steps:
  - id: planned
    action: ${WAIT_ACTION_ID}
    input:
      name: \${{ parameters.name }}
      provisionPhase: Succeeded`,
  },
];

type Target = { provisionPhase?: (typeof PROVISION_PHASES)[number] };

const isTrue = (view: ClusterView, type: string) =>
  findCondition(view, type)?.status === 'True';

/** Whether the wait is over; throws when it cannot end well (the Job failed). */
export function reached(view: ClusterView, target: Target): boolean {
  const phase = view.provision?.status?.phase;
  if (target.provisionPhase) {
    if (phase === target.provisionPhase) return true;
  } else if (isTrue(view, 'Connected') && isTrue(view, 'Registered')) {
    return true;
  }
  if (phase === 'Failed') {
    const status = view.provision!.status!;
    throw new Error(
      `the ${status.action} Job of Cluster ${view.name} failed: ${
        status.message ?? 'no message'
      }`,
    );
  }
  return false;
}

/** The cluster's conditions in a line, for the timeout's message. */
export function describeConditions(view?: ClusterView): string {
  if (!view?.conditions.length) return 'no conditions yet';
  return view.conditions
    .map(c => `${c.type} ${c.status}${c.message ? ` (${c.message})` : ''}`)
    .join('; ');
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('the task was cancelled'));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('the task was cancelled'));
      },
      { once: true },
    );
  });

/**
 * Reads the cluster until it reaches `target` (often at first, see pollDelayMs); throws at
 * `timeoutMs` with its conditions, on a failed Job, or when the task is cancelled.
 */
async function pollUntilReached(
  name: string,
  read: () => Promise<ClusterView>,
  target: Target,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ClusterView> {
  const started = Date.now();
  for (;;) {
    const view = await read();
    if (reached(view, target)) return view;
    const elapsed = Date.now() - started;
    if (elapsed >= timeoutMs) {
      const goal = target.provisionPhase
        ? `its Job ${target.provisionPhase}`
        : 'Registered';
      throw new Error(
        `Cluster ${name} did not reach ${goal} within ${
          timeoutMs / 1000
        } s: ${describeConditions(view)}`,
      );
    }
    await sleep(Math.min(pollDelayMs(elapsed), timeoutMs - elapsed), signal);
  }
}

/**
 * `infrared:cluster:wait`: reads GET /v1/clusters/\{name\} as the template's runner until the
 * cluster is Connected and Registered (or its OpenTofu Job reaches `provisionPhase`), at most
 * `timeoutSeconds`. Outputs the Argo CD server and the gitops path.
 *
 * @public
 */
export function createWaitForClusterAction(options: {
  infraredApi: InfraredApiFor;
}): TemplateAction<
  WaitForClusterActionInput,
  WaitForClusterActionOutput,
  'v2'
> {
  return createTemplateAction({
    id: WAIT_ACTION_ID,
    description:
      'Waits until a Cluster is Registered in Argo CD (Connected and Registered True), or until its OpenTofu Job reaches a phase, reading GET /api/infrared/v1/clusters/{name} as the user running the template. Fails on a failed Job or at the timeout, with the conditions.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        name: clusterName,
        provisionPhase: z =>
          z
            .enum(PROVISION_PHASES)
            .optional()
            .describe(
              "Wait for the cluster's OpenTofu Job to reach this phase instead of Registered",
            ),
        timeoutSeconds: z =>
          z
            .number()
            .int()
            .min(1)
            .max(MAX_TIMEOUT_SECONDS)
            .optional()
            .describe(
              `How long to wait, in seconds (default ${DEFAULT_TIMEOUT_SECONDS})`,
            ),
      },
      output: {
        argoServer: z =>
          z.string().describe('The API server address Argo CD uses'),
        gitopsPath: z =>
          z.string().describe("The cluster's file in the gitops repository"),
        provisionPhase: z =>
          z
            .string()
            .optional()
            .describe("The OpenTofu Job's phase, for a built cluster"),
      },
    },
    async handler(ctx) {
      const { name, provisionPhase } = ctx.input;
      const goal = provisionPhase ? `its Job ${provisionPhase}` : 'Registered';
      if (ctx.isDryRun) {
        ctx.logger.info(`dry run: would wait for Cluster ${name} (${goal})`);
        ctx.output('argoServer', '');
        ctx.output('gitopsPath', '');
        return;
      }
      const api = options.infraredApi(await ctx.getInitiatorCredentials());
      const started = Date.now();
      const view = await pollUntilReached(
        name,
        () => api.getCluster(name),
        { provisionPhase },
        (ctx.input.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
        ctx.signal,
      );
      ctx.logger.info(
        `Cluster ${name} reached ${goal} after ${(
          (Date.now() - started) /
          1000
        ).toFixed(1)} s`,
      );
      ctx.output('argoServer', view.argoServer ?? '');
      ctx.output('gitopsPath', view.gitopsPath ?? '');
      if (view.provision?.status?.phase) {
        ctx.output('provisionPhase', view.provision.status.phase);
      }
    },
  });
}
