import type {
  LoggerService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import {
  KubeRegistrarApi,
  RegistrarMetrics,
  type RegistrarApi,
  type RegistrarMeter,
  type RegistrarOptions,
  type RegistrarPassReport,
} from '@infrared-clusters/infrared-registrar';
import { createManagementClient } from '../kube';
import { discoveredClustersOptions, readRegistrarConfig } from './config';
import { RegistrarGitops, type RegistrarGitopsOptions } from './gitops';
import { RegistrarStatus } from './status';
import {
  RegistrarReplica,
  REGISTRAR_TASK_ID,
  type KubeConfig,
  type LeaderElectionOptions,
  type RegistrarGate,
} from './replica';

export { REGISTRAR_TASK_ID } from './replica';

export interface RegisterRegistrarTaskOptions {
  config: RootConfigService;
  logger: LoggerService;
  scheduler: SchedulerService;
  /**
   * The management cluster's client. Default: `infrared.managementCluster.kubeconfigPath`, else
   * the pod's service account.
   */
  client?: KubeClient;
  /** Replaces the API entirely (tests). */
  api?: RegistrarApi;
  /**
   * Where the watches connect (they need the kubeconfig itself, not a client). Default: the same
   * management cluster as `client`'s default (`infrared.managementCluster.kubeconfigPath`, else the
   * pod's service account), unless `api` replaces the API; `false`: no watches, the schedule alone.
   */
  kubeConfig?: KubeConfig | false;
  /** Stops the watches on shutdown (Backstage's lifecycle service). */
  lifecycle?: { addShutdownHook(hook: () => void | Promise<void>): void };
  /**
   * Where metrics go. Default: the global OpenTelemetry meter provider (`@opentelemetry/api`),
   * which Backstage's instrumentation exports; Backstage's alpha MetricsService fits too.
   */
  meter?: RegistrarMeter;
  /**
   * Leader election for watch-driven passes: the replica holding the Lease (in the target
   * namespace, named like the CLI's --leader-election-id default) passes in-process on a watch
   * event. Default: on when the client is the default or given (`client`), off when `api` replaces
   * the API without a `client`; `false`: off (a watch event triggers the scheduled task).
   */
  leaderElection?: LeaderElectionOptions;
  /**
   * Where each registered child's registration files go (unless `infrared.registrar.gitops` is
   * false): the backend's gitops publisher, the management cluster's name and its Secrets. None:
   * the registrar writes Argo CD Secrets only.
   */
  gitops?: Pick<
    RegistrarGitopsOptions,
    'publisher' | 'managementCluster' | 'secrets'
  >;
  /** The one-installation rule: no pass and no registrar Lease while it does not allow. */
  gate?: RegistrarGate;
}

export interface RegistrarTask {
  taskId: string;
  options: RegistrarOptions;
  /** Runs a pass now, outside the schedule (still one replica at a time). */
  trigger(): Promise<void>;
  /** The last pass's report, for the API and tests. */
  lastReport(): RegistrarPassReport | undefined;
  /** The last pass's outcome per child in this backend (the Clusters page). */
  status: RegistrarStatus;
  /** Stops the watches and leader election, releasing a held Lease (the schedule stays Backstage's). */
  stop(): Promise<void>;
  /**
   * 'leader' while this replica holds the registrar's Lease (it passes in-process on a change),
   * 'follower' while another live replica holds it (this one does not pass), 'none' without a
   * working Lease (the schedule alone decides who passes).
   */
  leadership(): 'leader' | 'follower' | 'none';
  /** Passes this replica ran, scheduled and in-process (tests, bench). */
  passes(): number;
}

/**
 * Reads `infrared.registrar` (throws on invalid values, naming the key) and, when enabled,
 * schedules the registrar as a `scope: 'global'` task `infrared-registrar` every `interval`: one
 * replica at a time, which is what the upstream project needs leader election for. Returns
 * undefined when disabled.
 */
export async function registerRegistrarTask(
  deps: RegisterRegistrarTaskOptions,
): Promise<RegistrarTask | undefined> {
  const { config, scheduler } = deps;
  const { enabled, gitops, options, warnings } = readRegistrarConfig(config);
  const logger = deps.logger.child({ task: REGISTRAR_TASK_ID });
  if (!enabled) {
    logger.debug('infrared: the child-cluster registrar is disabled');
    return undefined;
  }
  for (const w of warnings) logger.warn(w);
  // The management cluster as the kube service finds it (createManagementClient), unless `api`
  // replaces the API: the default client, and where the watches connect.
  const configured = deps.api ? undefined : createManagementClient(config);
  const configuredClient =
    configured && 'client' in configured ? configured.client : undefined;
  const client = deps.client ?? configuredClient;
  if (!client && configured && 'unavailable' in configured) {
    throw new Error(
      `infrared.registrar is enabled but ${configured.unavailable}`,
    );
  }
  const childGitops =
    gitops && deps.gitops && !options.dryRun
      ? new RegistrarGitops({
          ...deps.gitops,
          discovered: discoveredClustersOptions(config),
          logger,
        })
      : undefined;
  const status = new RegistrarStatus();
  const replica = new RegistrarReplica({
    status,
    api: deps.api ?? new KubeRegistrarApi(client!),
    options,
    logger,
    scheduler,
    metrics: new RegistrarMetrics(deps.meter),
    client,
    watchConfig:
      deps.kubeConfig === false
        ? undefined
        : deps.kubeConfig ?? configuredClient?.kubeConfig,
    leaderElection: deps.leaderElection,
    afterPass: childGitops && (() => childGitops.afterPass()),
    gate: deps.gate,
  });
  replica.startElection();
  const stop = () => replica.stop();
  deps.lifecycle?.addShutdownHook(stop);

  await scheduler.scheduleTask({
    id: REGISTRAR_TASK_ID,
    scope: 'global',
    frequency: { milliseconds: options.intervalMs },
    timeout: { milliseconds: Math.max(5 * 60_000, options.intervalMs) },
    fn: signal => replica.scheduled(signal),
  });
  logger.info(
    `infrared: child-cluster registrar scheduled every ${
      options.intervalMs / 1000
    }s (target namespace ${
      options.targetNamespace
    }, providers ${options.providers.map(p => p.name).join(', ')}${
      options.dryRun ? ', dry-run' : ''
    })`,
  );
  return {
    taskId: REGISTRAR_TASK_ID,
    options,
    trigger: () => scheduler.triggerTask(REGISTRAR_TASK_ID),
    lastReport: () => replica.last,
    status,
    stop,
    leadership: () => replica.leadership(),
    passes: () => replica.passes,
  };
}
