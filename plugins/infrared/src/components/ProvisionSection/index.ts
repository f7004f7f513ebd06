export { ProvisionSection, summaryText } from './ProvisionSection';
export type { ProvisionSectionProps } from './ProvisionSection';
