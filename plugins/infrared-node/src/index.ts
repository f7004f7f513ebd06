/**
 * Node library of the Infrared clusters plugins, with no Backstage runtime in it beyond the
 * extension points (`@backstage/backend-plugin-api`): what other backend modules and the standalone
 * registrar CLI reuse.
 *
 * @packageDocumentation
 */
export * from './ownerReference';
export * from './concurrency';
export * from './gitops';
export * from './events';
export * from './kube';
export * from './registrar';
export * from './provisioning';
