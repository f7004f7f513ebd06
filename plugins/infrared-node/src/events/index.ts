/**
 * The events topic the infrared backend publishes Cluster changes on, through Backstage's events
 * service (`eventsServiceRef` of `@backstage/plugin-events-node`). Other plugins' modules (the
 * catalog's entity provider, the Kubernetes plugin's cluster supplier) subscribe to it.
 *
 * @public
 */
export const INFRARED_CLUSTER_EVENTS_TOPIC = 'infrared.clusters';

/**
 * What changed about a Cluster: `registered` (made through the API), `reconciled` (the pass that
 * follows an API write is done: its status is current) or `removed` (deleted through the API).
 *
 * @public
 */
export type InfraredClusterChange = 'registered' | 'reconciled' | 'removed';

/**
 * The payload of an event on {@link INFRARED_CLUSTER_EVENTS_TOPIC}: the Cluster's name and what
 * happened. Never a credential: a subscriber reads the Cluster itself.
 *
 * @public
 */
export interface InfraredClusterEventPayload {
  cluster: string;
  change: InfraredClusterChange;
}

/**
 * Whether an event payload is an {@link InfraredClusterEventPayload} (events may come from another
 * process through the events backend).
 *
 * @public
 */
export function isInfraredClusterEventPayload(
  payload: unknown,
): payload is InfraredClusterEventPayload {
  const p = payload as Partial<InfraredClusterEventPayload> | undefined;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.cluster === 'string' &&
    (p.change === 'registered' ||
      p.change === 'reconciled' ||
      p.change === 'removed')
  );
}
