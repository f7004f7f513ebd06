import type { FieldError } from '../fieldErrors';
import { inspectCluster } from './cluster';
import { parseKubeconfigText } from './read';
import { selectClusterAndUser } from './select';
import type {
  ArgoClusterConfig,
  InspectKubeconfigOptions,
  KubeconfigInspection,
} from './types';
import { inspectUser } from './user';

/**
 * Checks a kubeconfig and converts its current context's cluster and user into the `config` of an
 * Argo CD cluster Secret. The one implementation behind the registration API, the register form
 * and the child-cluster registrar. Pure: no I/O, safe in the browser.
 *
 * @public
 */
export function inspectKubeconfig(
  text: string,
  options: InspectKubeconfigOptions = {},
): KubeconfigInspection {
  const prefix = options.field ?? 'kubeconfig';
  const parsed = parseKubeconfigText(text, prefix);
  if ('error' in parsed) return { ok: false, errors: [parsed.error] };

  const selection = selectClusterAndUser(parsed.doc, prefix);
  if ('errors' in selection) return { ok: false, errors: selection.errors };

  const errors: FieldError[] = [];
  const cluster = inspectCluster(
    selection.cluster,
    prefix,
    !!options.refuseInClusterServer,
    errors,
  );
  const user = inspectUser(selection.user, prefix, !!options.allowExec, errors);
  if (errors.length || !user) return { ok: false, errors };

  const { certData, keyData, ...credential } = user.credential;
  const tlsClientConfig = { ...cluster.tls };
  if (certData && keyData)
    Object.assign(tlsClientConfig, { certData, keyData });
  const argoConfig: ArgoClusterConfig = {
    ...credential,
    tlsClientConfig,
    ...(cluster.proxyUrl ? { proxyUrl: cluster.proxyUrl } : {}),
  };
  return {
    ok: true,
    context: selection.context,
    clusterName: selection.cluster.name,
    userName: selection.user.name,
    server: cluster.server,
    credentialKind: user.kind,
    argoConfig,
    insecure: cluster.tls.insecure,
    ...(user.execCommand ? { execCommand: user.execCommand } : {}),
  };
}
