export * from './state';
export * from './filterClusters';
export * from './sortClusters';
export * from './pageClusters';
export * from './listQuery';
