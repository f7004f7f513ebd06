export { findRepoRoot } from '@infrared-clusters/infrared-kube';
