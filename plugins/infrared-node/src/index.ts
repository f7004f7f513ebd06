/**
 * Node library of the Infrared clusters plugins, as Backstage's own -node packages are: the
 * infrared backend plugin's extension points and their types (the gitops publisher), and the events
 * topic other plugins' modules subscribe to. The Kubernetes layer is
 * `@infrared-clusters/infrared-kube`, the registrar engine `@infrared-clusters/infrared-registrar`.
 *
 * @packageDocumentation
 */
export * from './gitops';
export * from './events';
