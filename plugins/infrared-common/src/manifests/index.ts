export * from './secrets';
export * from './cluster';
