import type {
  LoggerService,
  RootConfigService,
} from '@backstage/backend-plugin-api';
import { INFRARED_NAMESPACE } from '@infrared-clusters/plugin-infrared-common';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { INSTALLATION_LEASE_NAME, readInstallationConfig } from './config';
import { InstallationGuard } from './guard';
import { InstallationLease } from './lease';

export {
  derivedInstallationId,
  INSTALLATION_LEASE_NAME,
  readInstallationConfig,
} from './config';
export {
  decide,
  type Decision,
  type LeaseRecord,
  type Verdict,
} from './decide';
export { gatedScheduler, installationWriteGate } from './gates';
export type { InstallationGate } from './gates';
export {
  InstallationGuard,
  type InstallationState,
  type InstallationView,
} from './guard';

/** A look at the Lease gets this long before it counts as failed. */
const LEASE_REQUEST_TIMEOUT_MS = 10_000;

export interface StartInstallationGuardOptions {
  config: RootConfigService;
  logger: LoggerService;
  /** The management cluster's client; none: `unguarded` (tests that inject the API alone). */
  client?: KubeClient;
  managementCluster: string;
  lifecycle?: { addShutdownHook(hook: () => void | Promise<void>): void };
}

/**
 * Reads `infrared.installation`, takes a first look at the Lease `infrared-installation` in
 * namespace infrared (so init ends knowing whether this installation may reconcile), and keeps
 * looking until shutdown.
 */
export async function startInstallationGuard(
  options: StartInstallationGuardOptions,
): Promise<InstallationGuard> {
  const settings = readInstallationConfig(options.config);
  const guard = new InstallationGuard({
    ...settings,
    managementCluster: options.managementCluster,
    logger: options.logger,
    // a client of its own: renewals never count among a pass's requests
    lease:
      options.client &&
      new InstallationLease(
        new KubeClient(options.client.kubeConfig, {
          timeoutMs: LEASE_REQUEST_TIMEOUT_MS,
        }),
        INFRARED_NAMESPACE,
        INSTALLATION_LEASE_NAME,
      ),
    unguardedReason: options.client
      ? undefined
      : 'no Kubernetes client to hold the Lease with',
  });
  await guard.start();
  options.lifecycle?.addShutdownHook(() => guard.stop());
  return guard;
}
