export * from './name';
export * from './names';
export * from './rules';
export * from './types';
export * from './list';
