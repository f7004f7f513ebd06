import type { FieldError } from '../fieldErrors';

// Declined by policy: the kubeconfig's author must not choose the identity Argo CD presents.
const IDENTITY_FLAGS = new Set(['-r', '--role', '--role-arn', '--profile']);

/** The value of the first of `names` in args, given as `--flag value` or `--flag=value`. */
export function flagValue(args: string[], names: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    for (const n of names) {
      if (args[i] === n && i + 1 < args.length) return args[i + 1];
      if (args[i].startsWith(`${n}=`)) return args[i].slice(n.length + 1);
    }
  }
  return undefined;
}

/** Positional arguments, skipping every flag and its value. */
export function positionals(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!args[i].startsWith('-')) out.push(args[i]);
    else if (!args[i].includes('=')) i++;
  }
  return out;
}

/** Refuses (never drops) a flag outside the allowlist: dropping one can change the identity. */
export function unsupportedFlag(
  args: string[],
  allowed: string[],
  cmd: string,
  field: string,
): FieldError | undefined {
  for (let i = 0; i < args.length; i++) {
    if (!args[i].startsWith('-')) continue;
    const name = args[i].split('=')[0];
    if (allowed.includes(name)) {
      if (!args[i].includes('=')) i++;
      continue;
    }
    const message = IDENTITY_FLAGS.has(name)
      ? `exec passes ${name} to ${cmd}, which Infrared does not forward: it names the identity to authenticate as, and Argo CD must use its own; grant Argo CD's identity access to the cluster instead`
      : `exec passes ${name} to ${cmd}, which argocd-k8s-auth does not accept; dropping it could change which identity the token is minted for, so the kubeconfig is refused`;
    return { field: `${field}.args`, message };
  }
  return undefined;
}
