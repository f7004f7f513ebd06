import { KubeApiError } from '../errors';

/** What a call threw (it must be a KubeApiError); fails the test when the call did not throw. */
export async function failure(p: Promise<unknown>): Promise<KubeApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(KubeApiError);
    return e as KubeApiError;
  }
  throw new Error('expected the call to fail');
}

/** What a caller decides on and reports: the code, the Status reason and the message. */
export const shape = (e: KubeApiError) => ({
  code: e.code,
  reason: e.reason,
  message: e.message,
});
