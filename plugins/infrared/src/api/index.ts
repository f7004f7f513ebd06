export { infraredApiRef } from './infraredApiRef';
export { infraredApiFactory } from './infraredApiFactory';
