/**
 * A zone Application's state as Argo CD's application-controller writes it in the Application's
 * `status`, read by the release gate: Healthy for this Release, or why not, in Argo CD's own words.
 */
import type { ZonePlacement } from '@infrared-clusters/plugin-infrared-common';
import type { ArgoObject } from '@infrared-clusters/infrared-kube';
import { RELEASE_ANNOTATION } from './application';

/** At most this many of Argo CD's messages in a zone's message, each cut at MAX_PART characters. */
const MAX_PARTS = 4;
const MAX_PART = 400;

const cut = (text: string) =>
  text.length > MAX_PART ? `${text.slice(0, MAX_PART - 1)}…` : text;

/** Phases of a sync hook that failed. */
const FAILED_OPERATION = new Set(['Failed', 'Error']);

/**
 * Why Argo CD does not sync the Application, in its own words, most telling first:
 * - `status.conditions` (InvalidSpecError, ComparisonError, SyncError, ... then the warnings);
 * - a sync that did not succeed (`status.operationState`, Running while Argo CD retries it, then
 *   Failed or Error): the objects it could not apply with their messages
 *   (`syncResult.resources[]`), then the operation's message ("one or more synchronization tasks
 *   are not valid: namespace x is not permitted in project 'p'. Retrying attempt #2 ...");
 * - the health message of the Application and of its Degraded objects.
 * A message contained in one already listed is not repeated (a SyncError condition quotes the
 * failed operation's message).
 */
export function argoProblems(app: ArgoObject): string[] {
  const status = app.status ?? {};
  const parts: string[] = [];
  const add = (text: unknown) => {
    if (typeof text !== 'string' || !text.trim()) return;
    const t = text.trim();
    if (parts.some(p => p.includes(t))) return;
    parts.push(t);
  };
  const conditions: any[] = Array.isArray(status.conditions)
    ? status.conditions
    : [];
  const isError = (c: any) => /Error$/.test(String(c?.type ?? ''));
  for (const c of [
    ...conditions.filter(isError),
    ...conditions.filter(other => !isError(other)),
  ]) {
    if (c?.message) add(`${c.type}: ${c.message}`);
  }
  const operation = status.operationState;
  if (operation?.phase && operation.phase !== 'Succeeded') {
    for (const r of operation.syncResult?.resources ?? []) {
      if (r?.status === 'SyncFailed' || FAILED_OPERATION.has(r?.hookPhase)) {
        const where = r.namespace ? `${r.namespace}/${r.name}` : r.name;
        add(`${r.kind} ${where}: ${r.message ?? r.status}`);
      }
    }
    const said = String(operation.message ?? '').trim();
    if (said && !parts.some(p => p.includes(said))) {
      add(`sync ${operation.phase}: ${said}`);
    }
  }
  add(status.health?.message);
  for (const r of status.resources ?? []) {
    if (r?.health?.status === 'Degraded' && r.health.message) {
      add(`${r.kind} ${r.name}: ${r.health.message}`);
    }
  }
  return parts.slice(0, MAX_PARTS).map(cut);
}

/**
 * Whether the zone's Application runs this Release and Argo CD reports it Synced and Healthy, read
 * from the Application's status as Argo CD writes it (status.sync.status, status.health.status).
 * Healthy also needs Argo CD's last sync operation done (`status.operationState.phase` Succeeded,
 * or none): while it runs (hooks, waves) or after it failed, the zone is not Healthy.
 * The status must be of this Release's source: Argo CD records the source it compared in
 * `status.sync.comparedTo.source`, whose `name` is the Release (application.ts); a status compared
 * before the Application turned to this Release says nothing about its content.
 */
export function applicationState(
  app: ArgoObject | undefined,
  ref: string,
  placement: Pick<ZonePlacement, 'applicationName' | 'applicationPath'>,
): { healthy: boolean; message: string } {
  const name = placement.applicationName;
  if (!app) {
    return {
      healthy: false,
      message: `waiting for Argo CD to create Application ${name} in namespace argocd from ${placement.applicationPath}`,
    };
  }
  const runs = app.metadata.annotations?.[RELEASE_ANNOTATION];
  if (runs !== ref) {
    return {
      healthy: false,
      message: `Application ${name} is still at ${
        runs ? `release ${runs}` : 'another revision'
      }; waiting for Argo CD to sync the change`,
    };
  }
  const wanted = app.spec?.source?.name;
  const compared = app.status?.sync?.comparedTo?.source?.name;
  if (wanted !== compared) {
    let before = 'not compared yet';
    if (compared) before = `its status is of release ${compared}`;
    else if (app.status?.sync?.comparedTo) {
      before = 'its status is of an earlier source';
    }
    return {
      healthy: false,
      message: `waiting for Argo CD to compare Application ${name} at release ${ref} (${before})`,
    };
  }
  const sync = app.status?.sync?.status ?? 'Unknown';
  const health = app.status?.health?.status ?? 'Unknown';
  // Argo CD reports Synced and Healthy once the objects are applied, while its sync operation may
  // still run (hooks, the last health checks) or have failed (a PostSync hook): not done then.
  const operation = app.status?.operationState?.phase;
  const done = !operation || operation === 'Succeeded';
  if (sync === 'Synced' && health === 'Healthy' && done) {
    return {
      healthy: true,
      message: `Application ${name} is Synced and Healthy`,
    };
  }
  const problems = argoProblems(app);
  if (!done && !problems.length) {
    problems.push(`its sync is ${operation}`);
  }
  return {
    healthy: false,
    message: `Argo CD reports Application ${name} ${sync} and ${health}${
      problems.length ? `: ${problems.join('; ')}` : ''
    }`,
  };
}
