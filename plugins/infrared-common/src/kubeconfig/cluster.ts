import type { FieldError } from '../fieldErrors';
import { Entry, readBase64, readBoolean, readString } from './read';
import type { ArgoTlsClientConfig } from './types';

export interface ClusterPart {
  server: string;
  tls: ArgoTlsClientConfig;
  proxyUrl?: string;
}

const IN_CLUSTER_HOSTS = new Set([
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
]);
const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks5h:']);

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** Whether a server URL reaches the API server Argo CD treats as its own in-cluster one. */
export function isInClusterServer(server: string): boolean {
  const url = parseUrl(server);
  if (!url) return false;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return IN_CLUSTER_HOSTS.has(host) && (url.port === '' || url.port === '443');
}

function checkServer(
  raw: string | undefined,
  field: string,
  refuseInCluster: boolean,
  errors: FieldError[],
): string {
  const at = `${field}.server`;
  if (!raw || !raw.trim()) {
    errors.push({
      field: at,
      message:
        'server is empty: it must be the API server address, like https://203.0.113.10:6443',
    });
    return '';
  }
  const server = raw.trim().replace(/\/+$/, '');
  const url = parseUrl(server);
  if (!url || !url.hostname) {
    errors.push({
      field: at,
      message: `server "${raw}" is not a URL with a host, like https://203.0.113.10:6443`,
    });
  } else if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    errors.push({
      field: at,
      message: `server "${raw}" must be an https:// URL`,
    });
  } else if (refuseInCluster && isInClusterServer(server)) {
    errors.push({
      field: at,
      message: `server "${raw}" is the in-cluster address, which Argo CD resolves to its own cluster, ignoring this kubeconfig's credentials: the cluster needs an address of its own`,
    });
  }
  return server;
}

function checkProxy(
  raw: string | undefined,
  insecure: boolean,
  field: string,
  errors: FieldError[],
): string | undefined {
  if (!raw) return undefined;
  const at = `${field}.proxy-url`;
  const url = parseUrl(raw);
  if (!url || !url.hostname) {
    errors.push({
      field: at,
      message: `proxy-url "${raw}" is not a URL with a host`,
    });
  } else if (!PROXY_SCHEMES.has(url.protocol)) {
    errors.push({
      field: at,
      message: `proxy-url "${raw}" uses scheme ${url.protocol.replace(
        /:$/,
        '',
      )}; Argo CD accepts only http, https, socks5 and socks5h`,
    });
  } else if (url.username || url.password) {
    errors.push({
      field: at,
      message:
        'proxy-url carries credentials, which would be copied into the Argo CD Secret: set them on the proxy instead',
    });
  } else if (insecure) {
    // With TLS verification off, the proxy could read the credential instead of relaying it.
    errors.push({
      field: at,
      message:
        'proxy-url together with insecure-skip-tls-verify is refused: the proxy could read the cluster credential',
    });
  } else {
    return raw;
  }
  return undefined;
}

/** Reads the chosen cluster entry: server, TLS settings and proxy. */
export function inspectCluster(
  entry: Entry,
  prefix: string,
  refuseInCluster: boolean,
  errors: FieldError[],
): ClusterPart {
  const field = `${prefix}.clusters[${entry.index}].cluster`;
  const c = entry.body;
  const server = checkServer(
    readString(c, 'server', field, errors),
    field,
    refuseInCluster,
    errors,
  );
  const caFile = readString(c, 'certificate-authority', field, errors);
  if (caFile) {
    errors.push({
      field: `${field}.certificate-authority`,
      message: `certificate-authority is a file path ("${caFile}"), which Infrared can't read: put the CA inline as certificate-authority-data (kubectl config view --raw --flatten does)`,
    });
  }
  const insecure =
    readBoolean(c, 'insecure-skip-tls-verify', field, errors) ?? false;
  const tls: ArgoTlsClientConfig = { insecure };
  const caData = readBase64(c, 'certificate-authority-data', field, errors);
  if (caData) tls.caData = caData;
  const serverName = readString(c, 'tls-server-name', field, errors);
  if (serverName) tls.serverName = serverName;
  const proxyUrl = checkProxy(
    readString(c, 'proxy-url', field, errors),
    insecure,
    field,
    errors,
  );
  return { server, tls, ...(proxyUrl ? { proxyUrl } : {}) };
}
