/**
 * Node library of the Infrared clusters plugins, with no Backstage runtime in it:
 * what other backend modules and the standalone registrar CLI reuse.
 *
 * @packageDocumentation
 */
export * from './ownerReference';
export * from './concurrency';
export * from './kube';
export * from './registrar';
