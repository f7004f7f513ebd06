/**
 * The `infrared-registrar` command, as an entry point of its own: `backstage-cli package build` turns
 * it into dist/cli.cjs.js, which bin/infrared-registrar.js runs with plain node in the published
 * package (and in a checkout once the packages are built).
 *
 * @packageDocumentation
 */
import { run } from './registrar/cli';

/**
 * Runs `infrared-registrar` with `argv` (the arguments after the script, as `--help` lists them);
 * stops on SIGINT/SIGTERM and sets `process.exitCode` when done.
 *
 * @public
 */
export function runRegistrarCli(argv: string[]): void {
  run(argv);
}
