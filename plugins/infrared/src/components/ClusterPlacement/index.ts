export { ZonesPlaced } from './ZonesPlaced';
export { OrgsAllowed } from './OrgsAllowed';
