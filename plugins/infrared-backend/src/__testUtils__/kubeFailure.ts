import { KubeApiError } from '@infrared-clusters/infrared-kube';

/**
 * What a call threw, as callers decide on it: a KubeApiError's code and reason. Fails when the call
 * did not throw, or threw anything else.
 */
export async function kubeFailure(
  p: Promise<unknown>,
): Promise<{ code: number; reason: string }> {
  const e = await p.then(
    () => undefined,
    err => err,
  );
  if (!(e instanceof KubeApiError)) {
    throw new Error(`expected a KubeApiError, got ${e}`);
  }
  return { code: e.code, reason: e.reason };
}

/** The names of listed objects, sorted. */
export const sortedNames = (items: Array<{ metadata: { name: string } }>) =>
  items.map(i => i.metadata.name).sort();
