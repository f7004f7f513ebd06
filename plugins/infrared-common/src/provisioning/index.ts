export * from './types';
export * from './rules';
export * from './allowed';
export * from './names';
export * from './billable';
export * from './removal';
