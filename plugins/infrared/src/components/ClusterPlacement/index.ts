export { ZonesPlaced } from './ZonesPlaced';
export { OrgsAllowed } from './OrgsAllowed';
export { GoneAllowlists } from './GoneAllowlists';
