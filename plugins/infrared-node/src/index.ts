/**
 * Node library of the Infrared clusters plugins, with no Backstage runtime in it:
 *
 * @packageDocumentation
 */
export * from './ownerReference';
export * from './kube';
