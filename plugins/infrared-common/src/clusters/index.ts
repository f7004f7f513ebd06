export * from './name';
export * from './names';
export * from './types';
