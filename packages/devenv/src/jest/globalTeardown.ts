import { stopControlPlane } from '../controlPlane';
import { STARTED_KEY } from './globalSetup';

/** Jest globalTeardown: stops only the control planes that this process's globalSetup started. */
export default async function globalTeardown(): Promise<void> {
  const started: string[] = (globalThis as any)[STARTED_KEY] ?? [];
  (globalThis as any)[STARTED_KEY] = [];
  for (const statePath of started) await stopControlPlane(statePath);
}
