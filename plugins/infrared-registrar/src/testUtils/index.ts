/**
 * Test utilities of the registrar engine: an in-memory stand-in for the API the registrar uses
 * (namespaces and Secrets, resourceVersions and preconditions, request counts), held to the real API
 * server by the RegistrarApi contract suite. Not part of the production exports; import from
 * `@infrared-clusters/infrared-registrar/testUtils`.
 *
 * @packageDocumentation
 */
export { MemoryRegistrarApi, type FailHook } from './memoryRegistrarApi';
// The production types the fake implements and exposes, for the API report of this entry point.
export type { RegistrarApi } from '../api';
export type { NamespaceObject, RegistrarSecret } from '../types';
