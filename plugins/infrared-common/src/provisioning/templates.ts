/** The templates the portal offers: finding the one a request names, and what the API shows of it. */
import type { ClusterTemplate, ClusterTemplateRef } from './types';

/**
 * The template a request names, from the configured ones.
 *
 * @public
 */
export function findTemplate(
  templates: readonly ClusterTemplate[],
  ref: ClusterTemplateRef,
): ClusterTemplate | undefined {
  return templates.find(
    t => t.module === ref.module && (t.version ?? '') === (ref.version ?? ''),
  );
}

/**
 * A template as GET /v1/provisioning/templates answers it: without its source and without its
 * internal variables (their defaults are the platform's, often paths of the machine).
 *
 * @public
 */
export function offeredTemplate(template: ClusterTemplate): ClusterTemplate {
  const { source: _source, ...offered } = template;
  return {
    ...offered,
    variables: template.variables.filter(v => !v.internal),
  };
}
