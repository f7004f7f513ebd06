/**
 * Shared types, validation rules, permissions and the typed API client of the Infrared
 * clusters plugins.
 *
 * @packageDocumentation
 */
export * from './permissions';
export * from './fieldErrors';
export * from './clusters';
export * from './kubeconfig';
export * from './manifests';
export * from './placement';
export * from './provisioning';
export * from './api';
export * from './secrets';
