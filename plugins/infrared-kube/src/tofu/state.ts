import { gunzipSync } from 'node:zlib';

/**
 * The outputs of an OpenTofu state kept by the kubernetes backend (`data.tfstate`: gzip, base64).
 *
 * @public
 */
export function stateOutputs(
  data: Record<string, string> | undefined,
): Record<string, { value: unknown; sensitive?: boolean }> | undefined {
  const raw = data?.tfstate;
  if (!raw) return undefined;
  const json = gunzipSync(Buffer.from(raw, 'base64')).toString('utf8');
  const state = JSON.parse(json);
  return state?.outputs ?? {};
}
