import { createHash } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import packageJson from '../../package.json';
import { KubeClient, isInCluster } from '../kube/client';
import { KubeRegistrarApi } from './api';
import { runRegistrarPass, type RegistrarPassReport } from './executor';
import { LeaseElector, type LeaseElectorOptions } from './lease';
import { secretDataCacheFor } from './reads';
import { RegistrarWatcher } from './watch';
import { slogTextLogger, type RegistrarLogger } from './logger';
import { RegistrarMetrics } from './metrics';
import {
  healthHandler,
  metricsHandler,
  PrometheusMeter,
  serveHttp,
} from './serve';
import {
  parseProviderSpec,
  PRESET_NAMES,
  RegistrarConfigError,
  REGISTRAR_DEFAULTS,
  resolveRegistrarOptions,
  type ProviderInput,
  type RegistrarInput,
  type RegistrarOptions,
} from './options';

export const USAGE = `usage: infrared-registrar [--once] [--dry-run] [--debug] [flags]

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

/** Parses the command line (pflag style: --flag v, --flag=v, -t v, bools with optional =value). */
export function parseRegistrarArgs(argv: string[]): RegistrarCliArgs {
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
      throw new RegistrarConfigError(arg, `unknown argument\n${USAGE}`);
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
      throw new RegistrarConfigError(`--${name}`, `unknown flag\n${USAGE}`);
    }
  }
  // pflag: a single-value flag given twice takes its last value.
  const one = (name: string) => values[name]?.at(-1);

  const notices: string[] = [];
  let providers: ProviderInput[] | undefined;
  if (values.provider) {
    providers = values.provider.map((spec, i) => {
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
      deriveLeaderElectionId(
        input.labelPrefix ?? REGISTRAR_DEFAULTS.labelPrefix,
        input.managedBy ?? REGISTRAR_DEFAULTS.managedBy,
      ),
    healthProbeBindAddress: one('health-probe-bind-address') ?? ':8081',
    metricsBindAddress: one('metrics-bind-address') ?? '0',
    input,
    notices,
  };
}

/** Upstream's default Lease name: `acr-` and the first 16 hex digits of sha256(prefix|managedBy). */
export function deriveLeaderElectionId(
  labelPrefix: string,
  managedBy: string,
): string {
  const sum = createHash('sha256')
    .update(`${labelPrefix}|${managedBy}`)
    .digest('hex');
  return `acr-${sum.slice(0, 16)}`;
}

/** This package's version (package.json, inlined by the build). */
export function registrarVersion(): string {
  return packageJson.version;
}

/** In-cluster config first, else the local kubeconfig (KUBECONFIG, then ~/.kube/config). */
export function loadRegistrarKubeConfig(path?: string): KubeConfig {
  const kc = new KubeConfig();
  if (path) {
    kc.loadFromFile(path);
  } else if (isInCluster()) {
    kc.loadFromCluster();
  } else {
    kc.loadFromDefault();
  }
  if (!kc.getCurrentCluster()) {
    throw new Error(
      'no in-cluster config and no usable kubeconfig: set KUBECONFIG or pass --kubeconfig',
    );
  }
  return kc;
}

export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Overrides the client (tests). */
  kubeConfig?: KubeConfig;
  signal?: AbortSignal;
  /** false: no watches, a pass per --interval only (the bench's "before"). Default true. */
  watch?: boolean;
  /** Lease timings (tests); client-go's defaults otherwise. */
  lease?: Pick<
    LeaseElectorOptions,
    'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs' | 'identity'
  >;
}

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let args: RegistrarCliArgs;
  let options: RegistrarOptions;
  let warnings: string[];
  try {
    args = parseRegistrarArgs(argv);
    if (args.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (args.version) {
      io.stdout(`infrared-registrar version ${registrarVersion()}\n`);
      return 0;
    }
    ({ options, warnings } = resolveRegistrarOptions(args.input, {
      keyName: flagName,
    }));
  } catch (e) {
    // As upstream (cobra): an invalid flag or value exits 1.
    io.stderr(`infrared-registrar: ${(e as Error).message}\n`);
    return 1;
  }
  const logger: RegistrarLogger = slogTextLogger(io.stdout, {
    debug: args.debug,
  });
  for (const n of args.notices) logger.warn(n);
  for (const w of warnings) logger.warn(w);

  let kubeConfig: KubeConfig;
  try {
    kubeConfig = io.kubeConfig ?? loadRegistrarKubeConfig(args.kubeconfig);
  } catch (e) {
    io.stderr(`infrared-registrar: ${(e as Error).message}\n`);
    return 1;
  }
  const client = new KubeClient(kubeConfig);
  const api = new KubeRegistrarApi(client);
  const meter =
    !args.once && args.metricsBindAddress !== '0'
      ? new PrometheusMeter()
      : undefined;
  const metrics = new RegistrarMetrics(meter);
  logger.info('starting', {
    server: client.server,
    targetNamespace: options.targetNamespace,
    labelPrefix: options.labelPrefix,
    managedBy: options.managedBy,
    providers: options.providers.map(p => p.name).join(','),
    interval: `${options.intervalMs / 1000}s`,
    demotedTtl: `${options.demotedTtlMs / 1000}s`,
    execCredentials: options.execCredentials,
    dryRun: options.dryRun,
    once: args.once,
  });

  const stop = io.signal ?? new AbortController().signal;
  const pass = (signal: AbortSignal) =>
    runRegistrarPass(api, options, { logger, metrics, signal });
  // --once is a pre-flight check: no Lease (it would take the running instance offline), no servers.
  if (args.once) {
    const report = await pass(stop);
    return report.errors.length ? 1 : 0;
  }

  const servers: Array<{ close(): Promise<void> }> = [];
  const closeServers = () => Promise.all(servers.map(s => s.close()));
  try {
    if (args.healthProbeBindAddress) {
      const s = await serveHttp(
        args.healthProbeBindAddress,
        healthHandler(() => true),
      );
      servers.push(s);
      logger.info('serving health probes', { addr: s.address });
    }
    if (meter) {
      // An empty address means ":8080" to controller-runtime; only "0" is off.
      const s = await serveHttp(
        args.metricsBindAddress || ':8080',
        metricsHandler(meter),
      );
      servers.push(s);
      logger.info('serving metrics', { addr: s.address });
    }
  } catch (e) {
    await closeServers();
    io.stderr(`infrared-registrar: ${(e as Error).message}\n`);
    return 1;
  }

  const cache = secretDataCacheFor(api);
  const watcher = (signal: AbortSignal, onChange: (reason: string) => void) =>
    new RegistrarWatcher({
      kubeConfig,
      options,
      logger,
      signal,
      known: (namespace, name, rv) => cache.has(namespace, name, rv),
      onChange: reason => {
        logger.debug('change seen; passing', { reason });
        onChange(reason);
      },
    });

  const watch = io.watch === false ? undefined : watcher;

  let code = 0;
  if (!args.leaderElect) {
    await passLoop(options.intervalMs, stop, pass, watch);
  } else {
    const elector = new LeaseElector(client, {
      namespace: options.targetNamespace,
      name: args.leaderElectionId,
      logger,
      ...io.lease,
    });
    if (await elector.acquire(stop)) {
      const lost = new AbortController();
      const leading = AbortSignal.any([stop, lost.signal]);
      const held = elector.hold(leading).then(result => {
        if (result === 'lost') {
          logger.error('leader election lost', { lease: elector.description });
          code = 1;
          lost.abort();
        }
      });
      await passLoop(options.intervalMs, leading, pass, watch);
      await held;
      if (!code) {
        await elector.release().catch(e =>
          logger.warn('could not release the lease', {
            lease: elector.description,
            error: (e as Error).message,
          }),
        );
      }
    }
  }
  await closeServers();
  logger.info('stopped');
  return code;
}

/** Watch-triggered passes start at least this far apart (a burst of events makes one or two passes). */
const MIN_WATCH_PASS_GAP_MS = 1_000;

/**
 * A pass, then one every `intervalMs` after the previous one ends (the full resync), and one soon
 * after the watches see a change, until the signal aborts.
 */
export async function passLoop(
  intervalMs: number,
  signal: AbortSignal,
  pass: (signal: AbortSignal) => Promise<RegistrarPassReport>,
  watch?: (
    signal: AbortSignal,
    onChange: (reason: string) => void,
  ) => RegistrarWatcher,
): Promise<void> {
  let woken = false;
  let wakeUp: (() => void) | undefined;
  const watcher = watch?.(signal, () => {
    woken = true;
    wakeUp?.();
  });
  const wait = (ms: number, wakeable: boolean) =>
    new Promise<void>(resolve => {
      // An abort during the pass has fired already: no listener would hear it.
      if (signal.aborted) {
        resolve();
        return;
      }
      let timer: ReturnType<typeof setTimeout> | undefined = undefined;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wakeUp = undefined;
        resolve();
      };
      timer = setTimeout(done, ms);
      if (wakeable) wakeUp = done;
      signal.addEventListener('abort', done, { once: true });
    });
  while (!signal.aborted) {
    woken = false;
    const started = Date.now();
    const report = await pass(signal);
    // Once the reads succeeded (a namespace that failed later does not stop the watches).
    if (watcher && report.resourceVersion) {
      watcher.setManaged(report.managedNamespaces);
      watcher.start(report.resourceVersion);
    }
    if (!woken) await wait(intervalMs, true);
    if (woken) {
      await wait(
        Math.max(0, started + MIN_WATCH_PASS_GAP_MS - Date.now()),
        false,
      );
    }
  }
}

/** Entry point of bin/infrared-registrar.js. */
export function run(argv: string[]): void {
  const controller = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => controller.abort());
  }
  main(argv, {
    stdout: s => process.stdout.write(s),
    stderr: s => process.stderr.write(s),
    signal: controller.signal,
  }).then(
    code => {
      process.exitCode = code;
    },
    e => {
      process.stderr.write(`infrared-registrar: ${(e as Error).stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
