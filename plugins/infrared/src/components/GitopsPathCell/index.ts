export { GitopsPathCell } from './GitopsPathCell';
