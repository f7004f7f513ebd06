/**
 * Whether this process made Infrared's platform-admin decision (the module's policy, or an adopter's
 * policy that composes `createInfraredPlatformAdminDecision`). The startup check cannot ask the
 * permission backend's policy itself (its /authorize takes only user credentials), so for a policy
 * module it does not know this is what tells "composes Infrared's rule" from "cannot tell".
 * Kept on globalThis so that two copies of this package in one backend still see each other.
 */
const KEY = Symbol.for(
  '@infrared-clusters/plugin-infrared-backend/platformAdminDecision',
);

type Marked = { [KEY]?: boolean };

export function markPlatformAdminDecisionCreated(): void {
  (globalThis as Marked)[KEY] = true;
}

export function platformAdminDecisionCreated(): boolean {
  return (globalThis as Marked)[KEY] === true;
}

/** For tests: forget that the decision was made. */
export function resetPlatformAdminDecisionCreated(): void {
  delete (globalThis as Marked)[KEY];
}
