/**
 * Backend plugin of Infrared clusters.
 *
 * @packageDocumentation
 */
export { infraredPlugin as default } from './plugin';
