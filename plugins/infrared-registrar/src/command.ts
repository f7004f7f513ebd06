/*
 * The registrar CLI (bin/infrared-registrar.js, and the bundle bin/build-registrar.js makes of
 * this file): flags in ./commandLine/args, the pass loop in ./commandLine/passLoop.
 */
import { KubeConfig } from '@kubernetes/client-node';
import packageJson from '../package.json';
import { KubeClient, isInCluster } from '@infrared-clusters/infrared-kube';
import { KubeRegistrarApi } from './api';
import { runRegistrarPass } from './executor';
import type { LeaseElectorOptions } from './lease';
import { secretDataCacheFor } from './reads';
import { RegistrarWatcher } from './watch';
import type { RegistrarScope } from './scope';
import { slogTextLogger, type RegistrarLogger } from './logger';
import { RegistrarMetrics } from './metrics';
import { PrometheusMeter } from './serve';
import { resolveRegistrarOptions, type RegistrarOptions } from './options';
import {
  flagName,
  parseRegistrarArgs,
  REGISTRAR_COMMAND,
  registrarUsage,
  type RegistrarCliArgs,
} from './commandLine/args';
import { whileLeading } from './commandLine/leader';
import { passLoop } from './commandLine/passLoop';
import { startCliServers, type CliServers } from './commandLine/servers';

export {
  flagName,
  parseRegistrarArgs,
  REGISTRAR_COMMAND,
  registrarUsage,
  USAGE,
  type RegistrarCliArgs,
} from './commandLine/args';
export { passLoop } from './commandLine/passLoop';

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

/**
 * The name and version the command answers to: `infrared-registrar` and this package's version by
 * default; the package `@infrared-clusters/argocd-cluster-registrar` runs it under upstream's name.
 */
export interface RegistrarCommand {
  name: string;
  version: string;
}

export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Overrides the client (tests). */
  kubeConfig?: KubeConfig;
  signal?: AbortSignal;
  /** The name in --help, --version and error lines (default infrared-registrar, this package's version). */
  command?: RegistrarCommand;
  /** false: no watches, a pass per --interval only (the bench's "before"). Default true. */
  watch?: boolean;
  /** Lease timings (tests); client-go's defaults otherwise. */
  lease?: Pick<
    LeaseElectorOptions,
    'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs' | 'identity'
  >;
}

function commandOf(io: Pick<CliIo, 'command'>): RegistrarCommand {
  return io.command ?? { name: REGISTRAR_COMMAND, version: registrarVersion() };
}

/** What the command line asks for, or the exit code when it answered already (help, version, error). */
function readCommandLine(
  argv: string[],
  io: CliIo,
):
  | { args: RegistrarCliArgs; options: RegistrarOptions; warnings: string[] }
  | number {
  const { name, version } = commandOf(io);
  try {
    const args = parseRegistrarArgs(argv, registrarUsage(name));
    if (args.help) {
      io.stdout(`${registrarUsage(name)}\n`);
      return 0;
    }
    if (args.version) {
      io.stdout(`${name} version ${version}\n`);
      return 0;
    }
    const { options, warnings } = resolveRegistrarOptions(args.input, {
      keyName: flagName,
    });
    return { args, options, warnings };
  } catch (e) {
    // As upstream (cobra): an invalid flag or value exits 1.
    io.stderr(`${name}: ${(e as Error).message}\n`);
    return 1;
  }
}

function logStart(
  logger: RegistrarLogger,
  server: string,
  options: RegistrarOptions,
  once: boolean,
) {
  logger.info('starting', {
    server,
    targetNamespace: options.targetNamespace,
    labelPrefix: options.labelPrefix,
    managedBy: options.managedBy,
    providers: options.providers.map(p => p.name).join(','),
    interval: `${options.intervalMs / 1000}s`,
    demotedTtl: `${options.demotedTtlMs / 1000}s`,
    execCredentials: options.execCredentials,
    dryRun: options.dryRun,
    once,
  });
}

/** The watches that wake the pass loop: a change a pass has not already read asks for a pass. */
function watcherFor(
  kubeConfig: KubeConfig,
  options: RegistrarOptions,
  logger: RegistrarLogger,
  api: KubeRegistrarApi,
) {
  const cache = secretDataCacheFor(api);
  return (
    signal: AbortSignal,
    onChange: (reason: string, scope?: RegistrarScope) => void,
  ) =>
    new RegistrarWatcher({
      kubeConfig,
      options,
      logger,
      signal,
      known: (namespace, name, rv) => cache.has(namespace, name, rv),
      onChange: (reason, scope) => {
        logger.debug('change seen; passing', { reason });
        onChange(reason, scope);
      },
    });
}

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const read = readCommandLine(argv, io);
  if (typeof read === 'number') return read;
  const { args, options, warnings } = read;
  const logger = slogTextLogger(io.stdout, { debug: args.debug });
  for (const n of args.notices) logger.warn(n);
  for (const w of warnings) logger.warn(w);

  let kubeConfig: KubeConfig;
  try {
    kubeConfig = io.kubeConfig ?? loadRegistrarKubeConfig(args.kubeconfig);
  } catch (e) {
    io.stderr(`${commandOf(io).name}: ${(e as Error).message}\n`);
    return 1;
  }
  const client = new KubeClient(kubeConfig);
  const api = new KubeRegistrarApi(client);
  const meter =
    !args.once && args.metricsBindAddress !== '0'
      ? new PrometheusMeter()
      : undefined;
  const metrics = new RegistrarMetrics(meter);
  logStart(logger, client.server, options, args.once);

  const stop = io.signal ?? new AbortController().signal;
  const pass = (signal: AbortSignal, scope?: RegistrarScope) =>
    runRegistrarPass(api, options, { logger, metrics, signal, scope });
  // --once is a pre-flight check: no Lease (it would take the running instance offline), no servers.
  if (args.once) {
    const report = await pass(stop);
    return report.errors.length ? 1 : 0;
  }

  let servers: CliServers;
  try {
    servers = await startCliServers(
      args.healthProbeBindAddress,
      args.metricsBindAddress,
      meter,
      logger,
    );
  } catch (e) {
    io.stderr(`${commandOf(io).name}: ${(e as Error).message}\n`);
    return 1;
  }
  const watch =
    io.watch === false
      ? undefined
      : watcherFor(kubeConfig, options, logger, api);
  const loop = (signal: AbortSignal) =>
    passLoop(options.intervalMs, signal, pass, watch);
  const code = args.leaderElect
    ? await whileLeading(
        client,
        {
          namespace: options.targetNamespace,
          name: args.leaderElectionId,
          logger,
          ...io.lease,
        },
        stop,
        loop,
      )
    : await loop(stop).then(() => 0);
  await servers.close();
  logger.info('stopped');
  return code;
}

/** Entry point of bin/infrared-registrar.js (and, named so, of argocd-cluster-registrar). */
export function run(argv: string[], command?: RegistrarCommand): void {
  const controller = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => controller.abort());
  }
  main(argv, {
    stdout: s => process.stdout.write(s),
    stderr: s => process.stderr.write(s),
    signal: controller.signal,
    command,
  }).then(
    code => {
      process.exitCode = code;
    },
    e => {
      process.stderr.write(
        `${commandOf({ command }).name}: ${(e as Error).stack ?? e}\n`,
      );
      process.exitCode = 1;
    },
  );
}
