/**
 * Test utilities of the Infrared Kubernetes layer: an in-memory stand-in for the management cluster's
 * API. Not part of the production exports; import from `@infrared-clusters/infrared-kube/testUtils`.
 *
 * @packageDocumentation
 */
export {
  InMemoryManagementApi,
  matchesLabelSelector,
} from './memoryManagementApi';
// The production types the fake implements and exposes, for the API report of this entry point.
export type { ClusterApi, ManagementApi, RequestCounter, SecretApi } from '..';
