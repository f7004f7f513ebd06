import type { RegistrarLogger } from '../logger';
import {
  healthHandler,
  metricsHandler,
  PrometheusMeter,
  serveHttp,
} from '../serve';

/** What the long-running CLI serves beside its passes; close() stops them. */
export interface CliServers {
  close(): Promise<void>;
}

/**
 * Health probes on `healthAddress` ('' = off) and the meter's metrics on `metricsAddress` (only
 * with a meter). A server that cannot listen closes the others and rejects.
 */
export async function startCliServers(
  healthAddress: string,
  metricsAddress: string,
  meter: PrometheusMeter | undefined,
  logger: RegistrarLogger,
): Promise<CliServers> {
  const servers: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    await Promise.all(servers.map(s => s.close()));
  };
  try {
    if (healthAddress) {
      const s = await serveHttp(
        healthAddress,
        healthHandler(() => true),
      );
      servers.push(s);
      logger.info('serving health probes', { addr: s.address });
    }
    if (meter) {
      // An empty address means ":8080" to controller-runtime; only "0" is off.
      const s = await serveHttp(
        metricsAddress || ':8080',
        metricsHandler(meter),
      );
      servers.push(s);
      logger.info('serving metrics', { addr: s.address });
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { close };
}
