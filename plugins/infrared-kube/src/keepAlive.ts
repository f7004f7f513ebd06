import type http from 'node:http';
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
 * The most connections one client keeps open to its API server; more requests at once wait for
 * one (client-go keeps 25 idle per host over HTTP/1.1, or one HTTP/2 connection). Without a bound a
 * burst opened a TLS connection per request in flight: 668 at once when 1,000 clusters were POSTed
 * (bench/scale), each a handshake, and native memory the allocator kept after (issue 25: RSS).
 */
export const MAX_CONNECTIONS_PER_CLIENT = 32;

type AddRequest = (request: http.ClientRequest, options: unknown) => void;
const addRequest = (
  https.Agent.prototype as unknown as { addRequest: AddRequest }
).addRequest;

/**
 * A keep-alive agent that sends at most `max` requests at once; the others wait their turn. Not
 * `maxSockets`: that hands a freed socket straight to a waiting request, before the answer that
 * freed it has closed, and node-fetch 2 (client-node's) then fails that answer as a premature
 * close (bench/scale: 955 of 1,000 status writes). Here the socket goes back to the pool first and
 * the next request takes it a turn of the event loop later.
 */
export class BoundedAgent extends https.Agent {
  private inFlight = 0;
  private readonly waiting: Array<{
    request: http.ClientRequest;
    options: unknown;
  }> = [];

  constructor(private readonly max: number, options: https.AgentOptions) {
    super(options);
  }

  addRequest(request: http.ClientRequest, options: unknown): void {
    if (this.inFlight >= this.max) this.waiting.push({ request, options });
    else this.send(request, options);
  }

  private send(request: http.ClientRequest, options: unknown): void {
    this.inFlight++;
    request.once('close', () => {
      this.inFlight--;
      setImmediate(() => this.sendWaiting());
    });
    addRequest.call(this, request, options);
  }

  /** The waiting requests the free places take; one given up while it waited is dropped. */
  private sendWaiting(): void {
    while (this.inFlight < this.max && this.waiting.length) {
      const { request, options } = this.waiting.shift()!;
      if (!request.destroyed) this.send(request, options);
    }
  }
}

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
      agent ??= new BoundedAgent(MAX_CONNECTIONS_PER_CLIENT, {
        ...(made as https.Agent & { options: https.AgentOptions }).options,
        keepAlive: true,
        maxFreeSockets: MAX_CONNECTIONS_PER_CLIENT,
        timeout: IDLE_CONNECTION_MS,
        scheduling: 'lifo',
      });
      context.setAgent(agent);
    },
  };
}
