import { registrarLeaseName } from '../lease';
import {
  parseProviderSpec,
  PRESET_NAMES,
  RegistrarConfigError,
  REGISTRAR_DEFAULTS,
  type ProviderInput,
  type RegistrarInput,
} from '../options';

/** The command's name when none is given (the bin of @infrared-clusters/infrared-registrar). */
export const REGISTRAR_COMMAND = 'infrared-registrar';

/** `--help`'s text for the command installed as `name` (infrared-registrar, argocd-cluster-registrar). */
export function registrarUsage(name: string = REGISTRAR_COMMAND): string {
  return `usage: ${name} [--once] [--dry-run] [--debug] [flags]

Registers child clusters (k3k, vcluster, kamaji, Cluster API ...) found in labelled namespaces as
Argo CD cluster Secrets, and removes them again when their namespace is deleted. Uses the in-cluster
service account when run in a pod, else KUBECONFIG or ~/.kube/config.

  --once                        one full pass, then exit (exit 1 if a namespace failed)
  --dry-run                     log what would change; write nothing
  --debug                       debug logs
  -t, --target-namespace NS     namespace Argo CD reads cluster Secrets from (default argocd)
      --managed-by VALUE        value of <prefix>managed-by (default cluster-registrar)
      --label-prefix PREFIX     label prefix, ending in '/' (default argocd-cluster-registrar/)
      --provider SPEC           repeatable: a preset (${PRESET_NAMES.join(
        ', ',
      )})
                                or name=glob=key[,key][=exec] (default k3k)
      --interval DURATION       time between passes without --once (default 60s)
      --demoted-ttl DURATION    delete demoted registrations this long after demotion (default 0: never)
      --exec-credentials        convert exec credentials for providers that allow it
      --kubeconfig PATH         use this kubeconfig instead of the in-cluster config or KUBECONFIG
      --secret-name-pattern G   deprecated: one custom provider's glob (with --secret-key)
      --secret-key KEY          deprecated: one custom provider's key
      --leader-elect            without --once, reconcile only while holding a Lease in the target namespace
      --leader-election-id NAME the Lease's name (default acr-<16 hex of sha256(prefix|managed-by)>)
      --health-probe-bind-address ADDR
                                serve /healthz and /readyz here without --once (default :8081; empty: off)
      --metrics-bind-address ADDR
                                serve Prometheus metrics here without --once (default "0": off)
      --version                 print the version and exit
  -h, --help                    this help

A flag given twice takes its last value (--provider adds up). Exit code 1 on an invalid flag or value,
and with --once when a namespace failed.`;
}

export const USAGE = registrarUsage();

export interface RegistrarCliArgs {
  once: boolean;
  debug: boolean;
  help: boolean;
  version: boolean;
  kubeconfig?: string;
  /** `--leader-elect` (turned off by --dry-run, with a notice, as upstream does). */
  leaderElect: boolean;
  /** `--leader-election-id`, else derived from the label prefix and managed-by as upstream does. */
  leaderElectionId: string;
  /** `--health-probe-bind-address`; '' = off. */
  healthProbeBindAddress: string;
  /** `--metrics-bind-address`; '0' = off. */
  metricsBindAddress: string;
  input: RegistrarInput;
  /** Deprecation notices to log. */
  notices: string[];
}

const BOOL_FLAGS = new Set([
  'once',
  'dry-run',
  'debug',
  'exec-credentials',
  'help',
  'version',
  'leader-elect',
]);
const VALUE_FLAGS = new Set([
  'target-namespace',
  'managed-by',
  'label-prefix',
  'provider',
  'interval',
  'demoted-ttl',
  'kubeconfig',
  'secret-name-pattern',
  'secret-key',
  'leader-election-id',
  'health-probe-bind-address',
  'metrics-bind-address',
]);
const SHORT: Record<string, string> = { t: 'target-namespace', h: 'help' };

/** Option key → the flag that sets it, for error messages. */
const FLAG_OF: Record<string, string> = {
  targetNamespace: '--target-namespace',
  managedBy: '--managed-by',
  labelPrefix: '--label-prefix',
  providers: '--provider',
  interval: '--interval',
  demotedTtl: '--demoted-ttl',
  execCredentials: '--exec-credentials',
  dryRun: '--dry-run',
  secretNamePattern: '--secret-name-pattern',
  secretKey: '--secret-key',
};

export function flagName(key: string): string {
  const m = /^providers\[(\d+)\](.*)$/.exec(key);
  if (m)
    return `--provider #${Number(m[1]) + 1}${
      m[2] ? ` (${m[2].slice(1)})` : ''
    }`;
  return FLAG_OF[key] ?? key;
}

/** Go's strconv.ParseBool, as pflag reads `--flag=value`. */
function parseBool(flag: string, value: string): boolean {
  if (/^(1|t|T|true|TRUE|True)$/.test(value)) return true;
  if (/^(0|f|F|false|FALSE|False)$/.test(value)) return false;
  throw new RegistrarConfigError(`--${flag}`, `"${value}" is not a boolean`);
}

/**
 * The flags as given: values of each value flag in order, and the booleans. Kept by hand: the command takes
 * upstream's Go flags as pflag reads them, and no flag library here does. Node's `util.parseArgs` refuses
 * `--leader-elect=false` ("does not take an argument") and reads `-t=v` as the value "=v"; a general parser
 * would still need strconv.ParseBool's spellings (`=t`, `=F`, `=TRUE`, `=0`) and pflag's last-value-wins added
 * per flag. A Helm chart or script written for upstream must run unchanged.
 */
function readFlags(
  argv: string[],
  usage: string,
): {
  values: Record<string, string[]>;
  bools: Record<string, boolean>;
} {
  const values: Record<string, string[]> = {};
  const bools: Record<string, boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let name: string;
    let inline: string | undefined;
    const long = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    // pflag shorthands: -t v, -tv, -t=v.
    const short = /^-([a-z])(.*)$/s.exec(arg);
    if (long) {
      name = long[1];
      inline = long[2];
    } else if (short && SHORT[short[1]]) {
      name = SHORT[short[1]];
      inline =
        short[2] === '' ? undefined : short[2].replace(/^=/, '') || undefined;
    } else {
      throw new RegistrarConfigError(arg, `unknown argument\n${usage}`);
    }
    if (BOOL_FLAGS.has(name)) {
      bools[name] = inline === undefined ? true : parseBool(name, inline);
    } else if (VALUE_FLAGS.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) {
        throw new RegistrarConfigError(`--${name}`, 'needs a value');
      }
      (values[name] ??= []).push(value);
    } else {
      throw new RegistrarConfigError(`--${name}`, `unknown flag\n${usage}`);
    }
  }
  return { values, bools };
}

/** The providers of the `--provider` values, each error naming the flag's position. */
function providerFlags(
  specs: string[] | undefined,
): ProviderInput[] | undefined {
  return specs?.map((spec, i) => {
    try {
      return parseProviderSpec(spec);
    } catch (e) {
      throw new RegistrarConfigError(
        flagName(`providers[${i}]`),
        (e as Error).message,
      );
    }
  });
}

/**
 * Parses the command line (pflag style: --flag v, --flag=v, -t v, bools with optional =value); an
 * unknown flag's error carries `usage`.
 */
export function parseRegistrarArgs(
  argv: string[],
  usage: string = USAGE,
): RegistrarCliArgs {
  const { values, bools } = readFlags(argv, usage);
  // pflag: a single-value flag given twice takes its last value.
  const one = (name: string) => values[name]?.at(-1);

  const notices: string[] = [];
  const providers = providerFlags(values.provider);
  const input: RegistrarInput = {};
  const set = <K extends keyof RegistrarInput>(
    k: K,
    v: RegistrarInput[K] | undefined,
  ) => {
    if (v !== undefined) input[k] = v;
  };
  set('targetNamespace', one('target-namespace'));
  set('managedBy', one('managed-by'));
  set('labelPrefix', one('label-prefix'));
  set('providers', providers);
  set('interval', one('interval'));
  set('demotedTtl', one('demoted-ttl'));
  set('execCredentials', bools['exec-credentials']);
  set('dryRun', bools['dry-run']);
  // Deprecated: resolveRegistrarOptions maps them onto one provider (or refuses them with --provider).
  set('secretNamePattern', one('secret-name-pattern'));
  set('secretKey', one('secret-key'));
  const leaderElectionId = one('leader-election-id');
  if (leaderElectionId !== undefined && !leaderElectionId.trim()) {
    throw new RegistrarConfigError(
      '--leader-election-id',
      'must not be empty; omit it to derive one',
    );
  }
  let leaderElect = !!bools['leader-elect'];
  if (leaderElect && bools['dry-run']) {
    notices.push('--dry-run disables leader election');
    leaderElect = false;
  }
  return {
    once: !!bools.once,
    debug: !!bools.debug,
    help: !!bools.help,
    version: !!bools.version,
    kubeconfig: one('kubeconfig'),
    leaderElect,
    leaderElectionId:
      leaderElectionId?.trim() ??
      registrarLeaseName(
        input.labelPrefix ?? REGISTRAR_DEFAULTS.labelPrefix,
        input.managedBy ?? REGISTRAR_DEFAULTS.managedBy,
      ),
    healthProbeBindAddress: one('health-probe-bind-address') ?? ':8081',
    metricsBindAddress: one('metrics-bind-address') ?? '0',
    input,
    notices,
  };
}
