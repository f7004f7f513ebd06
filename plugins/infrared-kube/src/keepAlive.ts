import https from 'node:https';
import type {
  RequestContext,
  SecurityAuthentication,
} from '@kubernetes/client-node';

/**
 * How long an idle connection stays open: under kube-apiserver's 90 s idle timeout, so the
 * client closes it before the server would, and never sends on a connection being closed.
 */
export const IDLE_CONNECTION_MS = 60_000;

/**
 * Authenticates like `inner`, but sends every request of the client over one keep-alive agent
 * (made once from the TLS options `inner` gives its first request) instead of the new agent, and so
 * the new TLS handshake, that `@kubernetes/client-node` makes for each request. Proxy agents and
 * plain http keep what `inner` gives.
 */
export function reusingConnections(
  inner: SecurityAuthentication,
): SecurityAuthentication {
  let agent: https.Agent | undefined;
  return {
    getName: () => inner.getName(),
    async applySecurityAuthentication(context: RequestContext) {
      await inner.applySecurityAuthentication(context);
      const made = context.getAgent();
      if (!made || made.constructor !== https.Agent) return;
      agent ??= new https.Agent({
        ...(made as https.Agent & { options: https.AgentOptions }).options,
        keepAlive: true,
        timeout: IDLE_CONNECTION_MS,
        scheduling: 'lifo',
      });
      context.setAgent(agent);
    },
  };
}
