export { ConditionChip } from './ConditionChip';
