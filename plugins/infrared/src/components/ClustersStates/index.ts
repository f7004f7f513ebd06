export { Loading } from './Loading';
export { LoadError } from './LoadError';
export { NoClusters } from './NoClusters';
export { NoMatches } from './NoMatches';
