import dns from 'node:dns/promises';
import net from 'node:net';

/** Where a server's connections go: an address (not a name) and a port. */
export interface ReachAddress {
  host: string;
  port: number;
}

/** The port of a server URL: its own, else its scheme's. */
function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}

/**
 * The address a server's connections go to now: its host when that is an address, else what the
 * name resolves to (once here, so a reach check costs no lookup).
 */
export async function reachAddressOf(server: string): Promise<ReachAddress> {
  const url = new URL(server);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = portOf(url);
  if (net.isIP(host)) return { host, port };
  const { address } = await dns.lookup(host);
  return { host: address, port };
}

/**
 * Whether something accepts a TCP connection at `address` within `timeoutMs`: connects, sends
 * nothing and closes. A tenth of a TLS handshake's CPU and nothing kept between checks (issue 25:
 * a kept TLS connection per cluster costs about 55 KB of native memory). A refusal, a reset, no
 * answer in time or an aborted `signal` is false. A plain timer, cleared when done: an
 * AbortSignal.timeout per check fired long after each (a DOMException and an event each).
 */
export function reachable(
  address: ReachAddress,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise(resolve => {
    const socket = net.connect({ host: address.host, port: address.port });
    let timer: ReturnType<typeof setTimeout> | undefined = undefined;
    function done(ok: boolean) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(ok);
    }
    function onAbort() {
      done(false);
    }
    timer = setTimeout(done, timeoutMs, false);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
