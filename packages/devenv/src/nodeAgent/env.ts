/**
 * What a kubelet computes for a container before it starts it, as pure functions: the environment
 * (env, envFrom, the Kubernetes service variables), `$(VAR)` references in command and args, and,
 * on this node, the local programs an image stands for.
 */

export interface EnvVarSource {
  secretKeyRef?: { name: string; key: string; optional?: boolean };
  configMapKeyRef?: { name: string; key: string; optional?: boolean };
  fieldRef?: { fieldPath: string };
}

export interface ContainerSpec {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: EnvVarSource }>;
  envFrom?: Array<{
    prefix?: string;
    secretRef?: { name: string; optional?: boolean };
    configMapRef?: { name: string; optional?: boolean };
  }>;
  workingDir?: string;
  terminationMessagePolicy?: string;
}

export interface PodLike {
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: {
    nodeName?: string;
    serviceAccountName?: string;
    containers: ContainerSpec[];
    restartPolicy?: string;
  };
}

/** Decoded Secrets and ConfigMaps of the Pod's namespace; undefined: not found. */
export interface EnvSources {
  secret(name: string): Record<string, string> | undefined;
  configMap(name: string): Record<string, string> | undefined;
}

/** Why a container cannot start yet, as the kubelet says it. */
export class ContainerConfigError extends Error {
  constructor(message: string, readonly reason = 'CreateContainerConfigError') {
    super(message);
  }
}

const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** The value of a fieldRef the kubelet resolves (metadata and spec fields a process may ask for). */
function fieldValue(pod: PodLike, fieldPath: string, hostIP: string): string {
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (m) return (pod.metadata as any)[m[1]]?.[m[2]] ?? '';
  switch (fieldPath) {
    case 'metadata.name':
      return pod.metadata.name;
    case 'metadata.namespace':
      return pod.metadata.namespace;
    case 'metadata.uid':
      return pod.metadata.uid;
    case 'spec.nodeName':
      return pod.spec.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec.serviceAccountName ?? 'default';
    case 'status.hostIP':
    case 'status.podIP':
      return hostIP;
    default:
      throw new ContainerConfigError(`unsupported fieldPath ${fieldPath}`);
  }
}

/**
 * A container's environment as the kubelet builds it: the Kubernetes service variables, then
 * envFrom in order (invalid names skipped), then env, whose entries win; `$(VAR)` in env values
 * refers to variables defined before. A missing Secret, ConfigMap or key that is not optional is a
 * CreateContainerConfigError, with the kubelet's words.
 */
export function containerEnv(
  pod: PodLike,
  container: ContainerSpec,
  sources: EnvSources,
  serviceEnv: Record<string, string>,
  hostIP = '127.0.0.1',
): Record<string, string> {
  const env: Record<string, string> = { ...serviceEnv };
  for (const from of container.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    let data: Record<string, string> | undefined;
    if (from.secretRef) {
      data = sources.secret(from.secretRef.name);
      if (!data && !from.secretRef.optional)
        throw new ContainerConfigError(
          `secret "${from.secretRef.name}" not found`,
        );
    } else if (from.configMapRef) {
      data = sources.configMap(from.configMapRef.name);
      if (!data && !from.configMapRef.optional)
        throw new ContainerConfigError(
          `configmap "${from.configMapRef.name}" not found`,
        );
    }
    for (const [key, value] of Object.entries(data ?? {})) {
      if (ENV_NAME.test(prefix + key)) env[prefix + key] = value;
    }
  }
  for (const e of container.env ?? []) {
    if (e.valueFrom) {
      const { secretKeyRef: s, configMapKeyRef: c, fieldRef: f } = e.valueFrom;
      if (s) {
        const data = sources.secret(s.name);
        if (!data) {
          if (s.optional) continue;
          throw new ContainerConfigError(`secret "${s.name}" not found`);
        }
        if (!(s.key in data)) {
          if (s.optional) continue;
          throw new ContainerConfigError(
            `couldn't find key ${s.key} in Secret ${pod.metadata.namespace}/${s.name}`,
          );
        }
        env[e.name] = data[s.key];
      } else if (c) {
        const data = sources.configMap(c.name);
        if (!data) {
          if (c.optional) continue;
          throw new ContainerConfigError(`configmap "${c.name}" not found`);
        }
        if (!(c.key in data)) {
          if (c.optional) continue;
          throw new ContainerConfigError(
            `couldn't find key ${c.key} in ConfigMap ${pod.metadata.namespace}/${c.name}`,
          );
        }
        env[e.name] = data[c.key];
      } else if (f) {
        env[e.name] = fieldValue(pod, f.fieldPath, hostIP);
      }
    } else {
      env[e.name] = expand(e.value ?? '', env);
    }
  }
  return env;
}

/**
 * Expands `$(VAR)` as the kubelet does: a defined variable is replaced, an undefined one is left
 * as it is, and `$$` escapes a `$`.
 */
export function expand(text: string, env: Record<string, string>): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '$' && text[i + 1] === '$') {
      out += '$';
      i++;
    } else if (ch === '$' && text[i + 1] === '(') {
      const end = text.indexOf(')', i + 2);
      if (end < 0) {
        out += text.slice(i);
        break;
      }
      const name = text.slice(i + 2, end);
      out += name in env ? env[name] : `$(${name})`;
      i = end;
    } else {
      out += ch;
    }
  }
  return out;
}

/** The variables a Pod sees for the `kubernetes` Service (the in-cluster host and port). */
export function kubernetesServiceEnv(
  host: string,
  port: number,
): Record<string, string> {
  return {
    KUBERNETES_SERVICE_HOST: host,
    KUBERNETES_SERVICE_PORT: String(port),
    KUBERNETES_SERVICE_PORT_HTTPS: String(port),
    KUBERNETES_PORT: `tcp://${host}:${port}`,
    KUBERNETES_PORT_443_TCP: `tcp://${host}:${port}`,
    KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
    KUBERNETES_PORT_443_TCP_PORT: String(port),
    KUBERNETES_PORT_443_TCP_ADDR: host,
  };
}

/** An image this node runs as local programs: its repository's last path segment, and what it stands for. */
export interface ImageMapping {
  /** The repository's last path segment, e.g. `opentofu` for `<registry>/opentofu/opentofu:1.10`. */
  name: string;
  /** Directories put first on PATH. */
  path: string[];
  /** The image's entrypoint, used when the container names no command. */
  entrypoint?: string[];
  /** The image's environment (its ENV lines): under the container's own variables. */
  env?: Record<string, string>;
}

/** The repository's last path segment of an image reference (no registry, tag or digest). */
export function imageName(image: string): string {
  const noDigest = image.split('@')[0];
  const last = noDigest.split('/').pop() ?? noDigest;
  return last.split(':')[0];
}

/** The mapping for an image, or a kubelet-style error when this node cannot run it. */
export function mapImage(
  image: string,
  mappings: readonly ImageMapping[],
): ImageMapping {
  const found = mappings.find(m => m.name === imageName(image));
  if (!found) {
    throw new ContainerConfigError(
      `image ${image} is not available on this node: devenv runs only images mapped to local programs (${
        mappings.map(m => m.name).join(', ') || 'none'
      })`,
      'ErrImagePull',
    );
  }
  return found;
}

/** The argv of a container: command (else the image's entrypoint) and args, `$(VAR)` expanded. */
export function containerArgv(
  container: ContainerSpec,
  mapping: ImageMapping,
  env: Record<string, string>,
): string[] {
  const command = container.command?.length
    ? container.command
    : mapping.entrypoint ?? [];
  const argv = [...command, ...(container.args ?? [])].map(a => expand(a, env));
  if (!argv.length) {
    throw new ContainerConfigError(
      `container ${container.name} has no command and image ${container.image} no entrypoint`,
    );
  }
  return argv;
}
