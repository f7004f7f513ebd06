/**
 * `argocd-cluster-registrar`: the registrar command of `@infrared-clusters/infrared-registrar` (its
 * engine, flags, logs, metrics and Lease) under upstream's name and this package's version. Running
 * this module runs the command with the process's arguments, as `bin/argocd-cluster-registrar.js` does.
 *
 * @packageDocumentation
 */
import { runRegistrarCli } from '@infrared-clusters/infrared-registrar/cli';
import { COMMAND } from './command';

runRegistrarCli(process.argv.slice(2), COMMAND);
