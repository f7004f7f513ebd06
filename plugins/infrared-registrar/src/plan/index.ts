/*
 * The registrar's planner: pure functions from what a pass read to what it writes, what it must
 * read first, and what a write's outcome means. Nothing here reads or writes; the executor
 * (../executor.ts and ../execute/) does both.
 */
export { planRegistrarPass } from './pass';
export {
  desiredClusterSecret,
  mergeRegistration,
  registrationChanged,
} from './registration';
export {
  hiddenTargetSecrets,
  MAX_LOOKUP_ROUNDS,
  nextRead,
  SOURCE_SECRET_FIELD_SELECTOR,
  type ReadProgress,
  type RegistrarRead,
} from './reads';
export {
  describeAction,
  dryRunLog,
  writeBatches,
  writeFailure,
  writtenLog,
  type WriteFailure,
} from './writes';
