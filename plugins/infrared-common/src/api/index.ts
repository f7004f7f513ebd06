export * from './request';
export * from './validate';
export * from './views';
export * from './client';
