// In -node, so the Kubernetes plugin's module finds the management cluster the same way.
export {
  readManagementClusterConfig,
  type ManagementClusterConfig,
} from '@infrared-clusters/infrared-kube';
