/**
 * Test utilities of the Infrared node library: an in-memory stand-in for the management cluster's
 * API. Not part of the production exports; import from `@infrared-clusters/plugin-infrared-node/testUtils`.
 *
 * @packageDocumentation
 */
export {
  InMemoryManagementApi,
  matchesLabelSelector,
} from './memoryManagementApi';
