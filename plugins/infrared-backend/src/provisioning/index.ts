export { createProvisioning, PROVISIONING_TASK_ID } from './createProvisioning';
export { ProvisioningService, type ProvisionLog } from './service';
export { ProvisioningReconciler } from './reconciler';
export { readProvisioningConfig } from './config';
