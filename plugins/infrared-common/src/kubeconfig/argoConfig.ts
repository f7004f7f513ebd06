import type { ArgoClusterConfig } from './types';

const omitEmpty = <T extends object>(o: T): T =>
  Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined && v !== ''),
  ) as T;

/**
 * Serialises Argo CD's cluster `config` with a fixed key order and Go's escaping of `<`, `>` and `&`,
 * so the same config always gives the same bytes: "no write when already right" compares bytes,
 * also against Secrets the upstream registrar (Go) wrote.
 *
 * @public
 */
export function serializeArgoConfig(config: ArgoClusterConfig): string {
  const tls = config.tlsClientConfig;
  const exec = config.execProviderConfig;
  const ordered = omitEmpty({
    bearerToken: config.bearerToken,
    tlsClientConfig: {
      insecure: !!tls.insecure,
      ...omitEmpty({
        caData: tls.caData,
        certData: tls.certData,
        keyData: tls.keyData,
        serverName: tls.serverName,
      }),
    },
    proxyUrl: config.proxyUrl,
    awsAuthConfig: config.awsAuthConfig && {
      clusterName: config.awsAuthConfig.clusterName,
    },
    execProviderConfig: exec && {
      command: exec.command,
      ...(exec.args?.length ? { args: exec.args } : {}),
      ...(exec.env && Object.keys(exec.env).length
        ? { env: sortKeys(exec.env) }
        : {}),
      apiVersion: exec.apiVersion,
    },
  });
  return JSON.stringify(ordered).replace(
    /[<>&\u2028\u2029]/g,
    c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function sortKeys(env: Record<string, string>): Record<string, string> {
  // Byte order, as Go sorts map keys; localeCompare would not.
  const keys = Object.keys(env).sort();
  return Object.fromEntries(keys.map(k => [k, env[k]]));
}
