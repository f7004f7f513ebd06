export * from './access';
export * from './job';
export * from './script';
export * from './state';
export * from './status';
