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
/**
 * The proxy schemes Argo CD's `ParseProxyUrl` and client-go's kubeconfig loader accept. Not
 * socks5h: both refuse it, and neither needs it (Go sends the server's host name to a socks5
 * proxy, which resolves it).
 */
export const PROXY_SCHEMES: readonly string[] = ['http', 'https', 'socks5'];

/**
 * Characters WHATWG URL parsing strips or rewrites but Go's url.Parse (Argo CD, client-go) refuses:
 * a value holding one would be accepted here and refused there.
 */
// eslint-disable-next-line no-control-regex
const NOT_IN_GO_URLS = /[\s\x00-\x1f\x7f\\]/;

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether a server URL reaches the API server Argo CD treats as its own in-cluster one.
 *
 * @public
 */
export function isInClusterServer(server: string): boolean {
  const url = parseUrl(server);
  if (!url) return false;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return IN_CLUSTER_HOSTS.has(host) && (url.port === '' || url.port === '443');
}

/**
 * A server address fit for a message: scheme, host, port and path, never user information, a query
 * or a fragment (where credentials hide), and only the scheme of a URL that is not http(s).
 */
export function displayServer(raw: string): string {
  const url = NOT_IN_GO_URLS.test(raw) ? undefined : parseUrl(raw);
  if (url && (url.protocol === 'https:' || url.protocol === 'http:')) {
    const path = url.pathname === '/' ? '' : url.pathname;
    return `${url.protocol}//${url.host}${path}`;
  }
  if (url) return `${url.protocol}…`;
  const shown = raw
    .replace(/^([^/@]*\/\/)?[^/@]*@/, '$1***@')
    .replace(/[?#][\s\S]*$/, '…');
  return shown.length > 100 ? `${shown.slice(0, 100)}…` : shown;
}

/**
 * What registration refuses in a server Argo CD itself would take: plain http (the cluster's
 * credential would cross the network unencrypted), and user information, a query or a fragment
 * (credentials in the address, which the Argo CD Secret's server, the portal and logs would show).
 */
export function registrationServerProblem(url: URL): string | undefined {
  if (url.protocol === 'http:') {
    return 'is plain http: the cluster credential would cross the network unencrypted; use the https:// address';
  }
  if (url.username || url.password) {
    return 'carries user information (user:password@): put the credential in the kubeconfig user, not in the address';
  }
  if (/[?#]/.test(url.href)) {
    return 'has a query or fragment, which an API server address never has: remove everything from ? or #';
  }
  return undefined;
}

/**
 * Checks an API server address (a kubeconfig's `server`, or a Cluster's `spec.server`) and
 * returns it trimmed as Argo CD keys it. `at` is the field the errors name. With `registration`,
 * also the rules of `registrationServerProblem`.
 */
export function checkServer(
  raw: string | undefined,
  at: string,
  refuseInCluster: boolean,
  errors: FieldError[],
  registration = false,
): string {
  if (!raw || !raw.trim()) {
    errors.push({
      field: at,
      message:
        'server is empty: it must be the API server address, like https://203.0.113.10:6443',
    });
    return '';
  }
  const server = raw.trim().replace(/\/+$/, '');
  const url = NOT_IN_GO_URLS.test(server) ? undefined : parseUrl(server);
  const shown = displayServer(raw);
  const problem = url && registration && registrationServerProblem(url);
  if (!url || !url.hostname) {
    errors.push({
      field: at,
      message: `server "${shown}" is not a URL with a host, like https://203.0.113.10:6443`,
    });
  } else if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    errors.push({
      field: at,
      message: `server "${shown}" must be an https:// URL`,
    });
  } else if (problem) {
    errors.push({ field: at, message: `server "${shown}" ${problem}` });
  } else if (refuseInCluster && isInClusterServer(server)) {
    errors.push({
      field: at,
      message: `server "${shown}" is the in-cluster address, which Argo CD resolves to its own cluster, ignoring this kubeconfig's credentials: the cluster needs an address of its own`,
    });
  }
  return server;
}

/** The proxy URL without its user information, fit for a message. */
function withoutUserinfo(raw: string): string {
  return raw.replace(/^([^/@]*\/\/)?[^/@]*@/, '$1***@');
}

function checkProxy(
  raw: string | undefined,
  insecure: boolean,
  field: string,
  errors: FieldError[],
): string | undefined {
  if (!raw) return undefined;
  const at = `${field}.proxy-url`;
  const url = NOT_IN_GO_URLS.test(raw) ? undefined : parseUrl(raw);
  const scheme = url?.protocol.replace(/:$/, '');
  if (!url || !url.hostname) {
    errors.push({
      field: at,
      message: `proxy-url "${withoutUserinfo(
        raw,
      )}" is not a URL with a host, like http://proxy.example:3128 (with a scheme, and no spaces)`,
    });
  } else if (url.username || url.password) {
    errors.push({
      field: at,
      message:
        'proxy-url carries credentials, which would be copied into the Argo CD Secret: set them on the proxy instead',
    });
  } else if (!PROXY_SCHEMES.includes(scheme!)) {
    const fix =
      scheme === 'socks5h'
        ? "use socks5:// instead: with it, Argo CD already lets the proxy resolve the server's name"
        : 'use an http://, https:// or socks5:// proxy';
    errors.push({
      field: at,
      message: `proxy-url "${raw}" uses scheme ${scheme}, which Argo CD (and kubectl, client-go) refuse: they accept only http, https and socks5; ${fix}`,
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
    `${field}.server`,
    refuseInCluster,
    errors,
    true,
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
  if (insecure && caData) {
    errors.push({
      field: `${field}.insecure-skip-tls-verify`,
      message:
        'insecure-skip-tls-verify: true together with certificate-authority-data is refused by Argo CD (and kubectl, client-go: "specifying a root certificates file with the insecure flag is not allowed"): remove insecure-skip-tls-verify so the server is verified with the CA, or remove certificate-authority-data',
    });
  }
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
