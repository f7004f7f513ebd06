import type { FieldError } from '../fieldErrors';
import { checkServer, PROXY_SCHEMES } from './cluster';
import { isGoBase64 } from './read';
import type {
  ArgoConnection,
  ArgoTlsClientConfig,
  KubeconfigAccepted,
} from './types';

/** @public */
export type ArgoConnectionResult =
  | ({ ok: true } & ArgoConnection)
  | { ok: false; errors: FieldError[] };

/**
 * The `server` and `config` of the Argo CD cluster Secret for a cluster reached through an
 * inspected kubeconfig: the server is `server` (a Cluster's `spec.server`) when it is set, else
 * the kubeconfig's own; the config is the kubeconfig's. The one place that decides both, for the
 * Secret the backend writes and for the connection its Connected check makes. `server` is held to
 * the kubeconfig's server rules (a URL with a host, not the in-cluster address); `field` names it
 * in the errors (default `spec.server`).
 *
 * @public
 */
export function argoConnectionFor(
  kubeconfig: KubeconfigAccepted,
  server?: string,
  field = 'spec.server',
): ArgoConnectionResult {
  if (!server?.trim()) {
    return {
      ok: true,
      server: kubeconfig.server,
      config: kubeconfig.argoConfig,
    };
  }
  const errors: FieldError[] = [];
  const checked = checkServer(server, field, true, errors, true);
  if (errors.length) return { ok: false, errors };
  return { ok: true, server: checked, config: kubeconfig.argoConfig };
}

/** Characters no HTTP header value may hold (Go's net/http refuses the request). */
// eslint-disable-next-line no-control-regex
const NOT_IN_HEADERS = /[\x00-\x08\x0a-\x1f\x7f]/;

const EXEC_API_VERSIONS = [
  'client.authentication.k8s.io/v1',
  'client.authentication.k8s.io/v1beta1',
];

interface PemBlock {
  type: string;
  /** The block has RFC 1421 headers (`Proc-Type: ...`), which certificate pools skip. */
  headers: boolean;
  /** The DER bytes, as a binary string; undefined when the body is not base64. */
  der?: string;
}

function decodeBase64(value: string): string | undefined {
  if (!isGoBase64(value)) return undefined;
  try {
    return atob(value.replace(/[\r\n]/g, ''));
  } catch {
    return undefined;
  }
}

/** The PEM blocks of a text, read the way Go's encoding/pem reads them. */
function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  const re = /-----BEGIN ([^\r\n-]+)-----\r?\n([\s\S]*?)-----END \1-----/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const body = m[2];
    blocks.push({
      type: m[1],
      headers: body.includes(':'),
      der: decodeBase64(body.replace(/[ \t]/g, '')),
    });
  }
  return blocks;
}

/** Whether a block holds DER (an ASN.1 SEQUENCE), as a certificate or a key must. */
const isDer = (b: PemBlock) => !!b.der && b.der.charCodeAt(0) === 0x30;

/**
 * What client-go (through Argo CD's `SecretToCluster` and `Cluster.RESTConfig()`) refuses in a
 * cluster Secret's server and config, each with the Secret field it is about: the checks of
 * rest.Config, transport.TLSConfigFor and Argo CD's ParseProxyUrl. Empty when Argo CD can build a
 * client from it. Pure: no I/O, no crypto (a certificate that parses as PEM and DER but not as
 * X.509, or a key that does not match its certificate, is left to the TLS stack).
 *
 * @public
 */
export function argoConnectionProblems(
  connection: ArgoConnection,
): FieldError[] {
  const errors: FieldError[] = [];
  checkServer(connection.server, 'server', false, errors);
  const config = connection.config;
  errors.push(...tlsProblems(config.tlsClientConfig ?? { insecure: false }));
  errors.push(...proxyProblems(config.proxyUrl));
  if (config.bearerToken && NOT_IN_HEADERS.test(config.bearerToken)) {
    errors.push({
      field: 'config.bearerToken',
      message:
        'bearerToken holds a control character, which no HTTP header may carry: client-go fails every request with it',
    });
  }
  const exec = config.execProviderConfig;
  if (exec && !EXEC_API_VERSIONS.includes(exec.apiVersion)) {
    errors.push({
      field: 'config.execProviderConfig.apiVersion',
      message: `exec apiVersion "${
        exec.apiVersion
      }" is refused by client-go: it accepts ${EXEC_API_VERSIONS.join(', ')}`,
    });
  }
  return errors;
}

type Decoded = Partial<Record<'caData' | 'certData' | 'keyData', string>>;

const at = (key: string) => `config.tlsClientConfig.${key}`;

/** transport.TLSConfigFor's rules: base64 data, no CA with insecure, PEM CA, a whole client certificate. */
function tlsProblems(tls: ArgoTlsClientConfig): FieldError[] {
  const errors: FieldError[] = [];
  const decoded: Decoded = {};
  for (const key of ['caData', 'certData', 'keyData'] as const) {
    const value = tls[key];
    if (!value) continue;
    decoded[key] = decodeBase64(value);
    if (decoded[key] === undefined) {
      errors.push({
        field: at(key),
        message: `${key} is not base64 (padded, standard alphabet): Argo CD cannot read the Secret's config ("illegal base64 data")`,
      });
    }
  }
  if (tls.insecure && tls.caData) {
    errors.push({
      field: at('insecure'),
      message:
        'insecure together with caData is refused by client-go (Argo CD, kubectl): "specifying a root certificates file with the insecure flag is not allowed"',
    });
  }
  if (decoded.caData !== undefined) {
    const certs = pemBlocks(decoded.caData).filter(
      b => b.type === 'CERTIFICATE' && !b.headers && isDer(b),
    );
    if (!certs.length) {
      errors.push({
        field: at('caData'),
        message:
          'caData holds no PEM certificate, which client-go (Argo CD, kubectl) refuses: "unable to load root certificates: unable to parse bytes as PEM block"',
      });
    }
  }
  errors.push(...clientCertificateProblems(tls, decoded));
  return errors;
}

/** certData and keyData: both or neither, a PEM certificate and a PEM private key. */
function clientCertificateProblems(
  tls: ArgoTlsClientConfig,
  decoded: Decoded,
): FieldError[] {
  if (!!tls.certData !== !!tls.keyData) {
    const [has, lacks] = tls.certData
      ? ['certData', 'keyData']
      : ['keyData', 'certData'];
    return [
      {
        field: at(has),
        message: `${has} without ${lacks}: client-go (Argo CD) ignores half a client certificate, so the connection would go without one`,
      },
    ];
  }
  if (decoded.certData === undefined || decoded.keyData === undefined)
    return [];
  const errors: FieldError[] = [];
  if (
    !pemBlocks(decoded.certData).some(b => b.type === 'CERTIFICATE' && isDer(b))
  ) {
    errors.push({
      field: at('certData'),
      message:
        'certData holds no PEM certificate, which client-go (Argo CD, kubectl) refuses: "tls: failed to find any PEM data in certificate input"',
    });
  }
  if (
    !pemBlocks(decoded.keyData).some(
      b =>
        (b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY')) &&
        isDer(b),
    )
  ) {
    errors.push({
      field: at('keyData'),
      message:
        'keyData holds no PEM private key, which client-go (Argo CD, kubectl) refuses: "tls: failed to find any PEM data in key input"',
    });
  }
  return errors;
}

/** Argo CD's ParseProxyUrl: an http, https or socks5 URL with a host. */
function proxyProblems(proxyUrl: string | undefined): FieldError[] {
  if (!proxyUrl) return [];
  let url: URL | undefined;
  try {
    url = /[\s\\]/.test(proxyUrl) ? undefined : new URL(proxyUrl);
  } catch {
    url = undefined;
  }
  const scheme = url?.protocol.replace(/:$/, '');
  if (url?.hostname && PROXY_SCHEMES.includes(scheme!)) return [];
  return [
    {
      field: 'config.proxyUrl',
      message: `Argo CD refuses the proxy URL${
        scheme ? ` (scheme ${scheme})` : ''
      }: "Failed to parse proxy url", it must be an http, https or socks5 URL with a host`,
    },
  ];
}
