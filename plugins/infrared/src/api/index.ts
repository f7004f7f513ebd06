export { infraredApiRef } from './infraredApiRef';
export { infraredApiFactory } from './infraredApiFactory';
export { argoCdApiRef } from './argoCdApiRef';
export { argoCdApiFactory } from './argoCdApiFactory';
