import type { KubeClient } from '@infrared-clusters/infrared-kube';
import { LeaseElector, type LeaseElectorOptions } from '../lease';

/**
 * Runs `lead` while this process holds the Lease `namespace/name`, until `stop` aborts or the
 * Lease is lost; releases it after a clean stop. Resolves to the exit code (1 when it was lost).
 */
export async function whileLeading(
  client: KubeClient,
  lease: LeaseElectorOptions,
  stop: AbortSignal,
  lead: (signal: AbortSignal) => Promise<void>,
): Promise<number> {
  const { logger } = lease;
  const elector = new LeaseElector(client, lease);
  if (!(await elector.acquire(stop))) return 0;
  let code = 0;
  const lost = new AbortController();
  const leading = AbortSignal.any([stop, lost.signal]);
  const held = elector.hold(leading).then(result => {
    if (result === 'lost') {
      logger.error('leader election lost', { lease: elector.description });
      code = 1;
      lost.abort();
    }
  });
  await lead(leading);
  await held;
  if (!code) {
    await elector.release().catch(e =>
      logger.warn('could not release the lease', {
        lease: elector.description,
        error: (e as Error).message,
      }),
    );
  }
  return code;
}
