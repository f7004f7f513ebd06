import type { AuditorService } from '@backstage/backend-plugin-api';
import type { Request } from 'express';

/** What an audit event carries beside who and the request. */
export type AuditMeta = NonNullable<
  Parameters<AuditorService['createEvent']>[0]['meta']
>;

/** Audit events around the router's changes: success or failure, with what changed. */
export function createAuditing(auditor?: AuditorService) {
  async function audited<T>(
    req: Request,
    eventId: string,
    meta: { name?: string },
    fn: () => Promise<T>,
  ): Promise<T> {
    const event = await auditor?.createEvent({
      eventId,
      severityLevel: 'medium',
      request: req,
      meta: meta.name ? { cluster: meta.name } : {},
    });
    try {
      const result = await fn();
      await event?.success();
      return result;
    } catch (error) {
      await event?.fail({ error: error as Error });
      throw error;
    }
  }

  /**
   * Audits a change whose details (before and after) are known only once it is made: `fn`
   * returns the result and the metadata the success event carries.
   */
  async function auditedChange<T>(
    req: Request,
    eventId: string,
    meta: AuditMeta,
    fn: () => Promise<{ result: T; meta: AuditMeta }>,
  ): Promise<T> {
    const event = await auditor?.createEvent({
      eventId,
      severityLevel: 'medium',
      request: req,
      meta,
    });
    try {
      const done = await fn();
      await event?.success({ meta: { ...meta, ...done.meta } });
      return done.result;
    } catch (error) {
      await event?.fail({ error: error as Error, meta });
      throw error;
    }
  }

  /**
   * Runs a change's checks (-common's rules, after authorization): when they refuse it, a failed
   * event of the change says so, as it did when the checks ran inside the change's own event.
   */
  async function auditedChecks(
    req: Request,
    eventId: string,
    meta: AuditMeta,
    fn: () => void | Promise<void>,
  ): Promise<void> {
    try {
      await fn();
    } catch (error) {
      const event = await auditor?.createEvent({
        eventId,
        severityLevel: 'medium',
        request: req,
        meta,
      });
      await event?.fail({ error: error as Error, meta });
      throw error;
    }
  }

  return { audited, auditedChange, auditedChecks };
}
