export * from './client';
export * from './counter';
export * from './errors';
export * from './types';
export * from './resources';
export * from './conditions';
export * from './probe';
export { InMemoryManagementApi, matchesLabelSelector } from './memory';
export * from './meta';
