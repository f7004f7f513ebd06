export * from './types';
export * from './paths';
export * from './org';
export * from './appProject';
export * from './decision';
export * from './requests';
export * from './views';
export * from './annotation';
