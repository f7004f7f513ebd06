export { BreakableText } from './BreakableText';
