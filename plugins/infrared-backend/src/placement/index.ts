export {
  createPlacement,
  readPlacementConfig,
  RELEASE_GATE_TASK_ID,
  type CreatePlacementOptions,
  type PlacementConfig,
} from './createPlacement';
export {
  PlacementService,
  type AllowlistChange,
  type PlacementCaller,
  type PlacementServiceOptions,
} from './service';
export { ReleaseGate, promotionKey, type GatePassSummary } from './gate';
export { planRelease, GateReasons } from './plan';
export { completePromotion } from './promotion';
export { removeClusterWithPlacement } from './removal';
export { buildZoneApplication, renderZoneApplication } from './application';
