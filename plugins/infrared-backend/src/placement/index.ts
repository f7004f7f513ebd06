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
export { planRelease, completePromotion, GateReasons } from './plan';
export { buildZoneApplication, renderZoneApplication } from './application';
