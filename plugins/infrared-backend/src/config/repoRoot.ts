export { findRepoRoot } from '@infrared-clusters/plugin-infrared-node';
