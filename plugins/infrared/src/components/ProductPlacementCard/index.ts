export { ProductPlacementCard, ProductPlacement } from './ProductPlacementCard';
