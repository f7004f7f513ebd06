import type { FieldError } from '../fieldErrors';

/**
 * The `tlsClientConfig` of an Argo CD cluster Secret's `config`.
 *
 * @public
 */
export interface ArgoTlsClientConfig {
  /** Always present, as Argo CD writes it. */
  insecure: boolean;
  /** The kubeconfig's base64 `certificate-authority-data`, verbatim. */
  caData?: string;
  /** The kubeconfig's base64 `client-certificate-data`, verbatim. */
  certData?: string;
  /** The kubeconfig's base64 `client-key-data`, verbatim. */
  keyData?: string;
  /** The kubeconfig's `tls-server-name`. */
  serverName?: string;
}

/**
 * `argocd-k8s-auth` with the arguments that mint a token for one cluster.
 *
 * @public
 */
export interface ArgoExecProviderConfig {
  command: 'argocd-k8s-auth';
  args?: string[];
  env?: Record<string, string>;
  apiVersion: 'client.authentication.k8s.io/v1beta1';
}

/**
 * The `config` JSON of an Argo CD cluster Secret.
 *
 * @public
 */
export interface ArgoClusterConfig {
  bearerToken?: string;
  tlsClientConfig: ArgoTlsClientConfig;
  proxyUrl?: string;
  awsAuthConfig?: { clusterName: string };
  execProviderConfig?: ArgoExecProviderConfig;
}

/**
 * What Argo CD connects to a cluster with: its cluster Secret's `server` and `config`. The
 * backend's Connected check uses exactly this, so it tests the connection Argo CD will make.
 *
 * @public
 */
export interface ArgoConnection {
  /** The Secret's `server`: trailing slashes trimmed. */
  server: string;
  config: ArgoClusterConfig;
}

/** @public */
export type CredentialKind = 'token' | 'client-certificate' | 'exec';

/** @public */
export interface InspectKubeconfigOptions {
  /**
   * Convert exec users (aws, aws-iam-authenticator, kubelogin) to Argo CD's equivalents instead of
   * refusing them. The registrar sets it for providers that allow exec; registration never does.
   */
  allowExec?: boolean;
  /**
   * Refuse servers at the in-cluster address (`kubernetes.default[.svc[.cluster.local]][:443]`):
   * Argo CD resolves those to its own cluster and ignores the kubeconfig's credentials.
   */
  refuseInClusterServer?: boolean;
  /** Prefix of every error's field. Default `kubeconfig`. */
  field?: string;
}

/** @public */
export interface KubeconfigAccepted {
  ok: true;
  /** The context used; undefined when the lone cluster and user were taken without one. */
  context?: string;
  /** The name of the kubeconfig's cluster entry (not the Infrared cluster name). */
  clusterName: string;
  userName: string;
  /** The API server address, trailing slashes trimmed. */
  server: string;
  credentialKind: CredentialKind;
  argoConfig: ArgoClusterConfig;
  /** TLS verification is off: worth a warning. */
  insecure: boolean;
  /** The exec command's base name when an exec credential was converted. */
  execCommand?: string;
}

/** @public */
export interface KubeconfigRefused {
  ok: false;
  errors: FieldError[];
}

/** @public */
export type KubeconfigInspection = KubeconfigAccepted | KubeconfigRefused;
