/**
 * The `infrared-registrar` command, as an entry point of its own: `backstage-cli package build` turns
 * it into dist/cli.cjs.js, which bin/infrared-registrar.js runs with plain node in the published
 * package (and in a checkout once the packages are built). `@infrared-clusters/argocd-cluster-registrar`
 * runs the same command under upstream's name, `argocd-cluster-registrar`.
 *
 * @packageDocumentation
 */
import { run } from './command';

/**
 * The name and version the command answers to in `--help`, `--version` and its error lines.
 *
 * @public
 */
export interface RegistrarCliCommand {
  /** The command's name, e.g. `argocd-cluster-registrar`. */
  name: string;
  /** The version `--version` prints. */
  version: string;
}

/**
 * Runs `infrared-registrar` with `argv` (the arguments after the script, as `--help` lists them);
 * stops on SIGINT/SIGTERM and sets `process.exitCode` when done. `command` names it otherwise
 * (default: `infrared-registrar` and this package's version).
 *
 * @public
 */
export function runRegistrarCli(
  argv: string[],
  command?: RegistrarCliCommand,
): void {
  run(argv, command);
}
