import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { RequestContext } from '@kubernetes/client-node';
import { Client, type Dispatcher } from 'undici';
import { IDLE_CONNECTION_MS } from './keepAlive';
import {
  LightGetStatusError,
  LightGetTooLargeError,
  MAX_ANSWER_BYTES,
} from './lightGet';
import { CONNECTION_TLS_FIELDS, secureContexts } from './secureContexts';

/** Where a kept connection goes: an origin, and TLS options unless it is plain http. */
export interface KeptTarget {
  origin: URL;
  /** The TLS options (an https.Agent's `options`); undefined for an http origin. */
  tls?: Record<string, unknown>;
  /** How long an idle connection stays open. Default IDLE_CONNECTION_MS. */
  idleMs?: number;
}

/** undici's codes of a connection that closed or reset before the answer's head came. */
const STALE_CODES = new Set([
  'UND_ERR_SOCKET',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_CLOSED',
]);

/** What http.request rejects with when its signal aborts: an AbortError with the reason. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted'), {
    name: 'AbortError',
    code: 'ABORT_ERR',
    cause: signal.reason,
  });
}

/** An undici error as lightGet's: the socket's own error (its code, ECONNREFUSED) when it has one. */
function socketError(error: unknown): unknown {
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  return typeof cause?.code === 'string' ? cause : error;
}

/**
 * GETs over one connection that stays open (HTTP/1.1, one request at a time): an undici Client
 * per target, which costs a fraction of the CPU of http.request, whose agent, ClientRequest and
 * header handling dominate a `/version` probe's cost (issue 25: CPU at rest, 1,000 probes a
 * pass). Answers and failures are shaped as lightGet's (LightGetStatusError,
 * LightGetTooLargeError, the socket's error codes, an AbortError on the signal), so a caller
 * classifies them the same way. A request the server's close of the kept connection cut before
 * any answer is sent once more (undici does not resend the request in flight itself). The TLS
 * context (CA, client credential) is shared with every other connection that has the same
 * (`secureContexts`), and only it and the connection's own options are kept.
 */
export class KeptConnection {
  private client?: Client;
  /** undici's connect options: the shared context and this connection's server name and checks. */
  private readonly connect: Record<string, unknown>;

  constructor(private readonly target: KeptTarget) {
    this.connect =
      target.origin.protocol === 'https:' ? connectOptions(target) : {};
    this.target = { origin: target.origin, idleMs: target.idleMs };
  }

  /** GET `path` with `headers`; the JSON answer of a 2xx status, else a LightGetStatusError. */
  async get<T>(
    path: string,
    headers: Record<string, string>,
    signal: AbortSignal,
    maxBytes = MAX_ANSWER_BYTES,
  ): Promise<T> {
    if (signal.aborted) throw abortError(signal);
    let answer: Dispatcher.ResponseData;
    try {
      answer = await this.send(path, headers, signal);
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      const code = (error as { code?: unknown })?.code;
      if (typeof code !== 'string' || !STALE_CODES.has(code)) {
        throw socketError(error);
      }
      // the server closed the kept connection as the request went out: once more on a new one
      try {
        answer = await this.send(path, headers, signal);
      } catch (again) {
        throw signal.aborted ? abortError(signal) : socketError(again);
      }
    }
    const text = await this.read(answer, signal, maxBytes);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text for the message
    }
    const status = answer.statusCode;
    if (status >= 200 && status < 300) return body as T;
    const answerHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') answerHeaders[name] = value;
    }
    throw new LightGetStatusError(status, body, answerHeaders);
  }

  /** Closes the connection (a later GET opens another). */
  close(): void {
    this.client?.destroy().catch(() => undefined);
    this.client = undefined;
  }

  private send(
    path: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    const answer = this.connection().request({
      path,
      method: 'GET',
      headers,
      signal,
    });
    // undici settles an aborted request only once its connect ends (10 s by default against a
    // server that never finishes the handshake): answer the abort at once, and drop the connection
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.close();
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      answer
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** The body as text, at most `maxBytes` of it (past that the connection is dropped). */
  private async read(
    answer: Dispatcher.ResponseData,
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<string> {
    const length = Number(answer.headers['content-length']);
    if (length > maxBytes) {
      answer.body.destroy();
      throw new LightGetTooLargeError(maxBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          answer.body.destroy();
          throw new LightGetTooLargeError(maxBytes);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof LightGetTooLargeError) throw error;
      throw signal.aborted ? abortError(signal) : socketError(error);
    }
    return chunks.length === 1
      ? chunks[0].toString('utf8')
      : Buffer.concat(chunks).toString('utf8');
  }

  private connection(): Client {
    if (this.client && !this.client.destroyed && !this.client.closed) {
      return this.client;
    }
    const idleMs = this.target.idleMs ?? IDLE_CONNECTION_MS;
    this.client = new Client(this.target.origin.origin, {
      connect: { ...this.connect, noDelay: true },
      keepAliveTimeout: idleMs,
      keepAliveMaxTimeout: idleMs,
      pipelining: 1,
    });
    return this.client;
  }
}

/** The connect options of an https target: its TLS options' shared context, SNI as https.Agent sets it. */
function connectOptions(target: KeptTarget): Record<string, unknown> {
  const tls = target.tls ?? {};
  const connect: Record<string, unknown> = {
    secureContext: secureContexts.contextFor(tls),
  };
  for (const field of CONNECTION_TLS_FIELDS) {
    if (tls[field] !== undefined) connect[field] = tls[field];
  }
  // what https.Agent does: SNI for a name, none for an address
  const host = target.origin.hostname.replace(/^\[(.*)\]$/, '$1');
  if (connect.servername === undefined && !net.isIP(host)) {
    connect.servername = host;
  }
  return connect;
}

/** A client's credential headers are asked of its authentication again after this long (and after a 401). */
export const KEPT_HEADERS_MS = 5 * 60_000;

/**
 * A client's GETs over a KeptConnection: the URL, headers and TLS options are those its
 * authentication gives a request (client-node's, through the client's keep-alive agent), asked again
 * every KEPT_HEADERS_MS and after a 401 (an exec or token file credential renews), not once per
 * request: that costs more CPU than the request (a new agent each time).
 */
export class KeptGets {
  private kept?: {
    connection?: KeptConnection;
    headers: Record<string, string>;
    /** The server URL's path (`https://host/k8s/clusters/c1`), put before every path. */
    prefix: string;
    agent: unknown;
    at: number;
  };

  constructor(
    private readonly contextFor: (path: string) => Promise<RequestContext>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer, or undefined when the client's requests go through a proxy agent (not kept). */
  async get<T>(
    path: string,
    signal: AbortSignal,
    maxBytes?: number,
  ): Promise<{ answer: T } | undefined> {
    const stale = !this.kept || this.now() - this.kept.at >= KEPT_HEADERS_MS;
    let kept = stale ? await this.renew(path) : this.kept!;
    if (!kept.connection) return undefined;
    try {
      const answer = await kept.connection.get<T>(
        kept.prefix + path,
        kept.headers,
        signal,
        maxBytes,
      );
      return { answer };
    } catch (error) {
      const refused =
        error instanceof LightGetStatusError && error.code === 401;
      if (!refused || stale) throw error;
      kept = await this.renew(path);
      if (!kept.connection) return undefined;
      const answer = await kept.connection.get<T>(
        kept.prefix + path,
        kept.headers,
        signal,
        maxBytes,
      );
      return { answer };
    }
  }

  private async renew(path: string) {
    const context = await this.contextFor(path);
    const agent = context.getAgent();
    const url = new URL(context.getUrl());
    const headers = context.getHeaders();
    const own = path.split('?')[0];
    const prefix = url.pathname.endsWith(own)
      ? url.pathname.slice(0, url.pathname.length - own.length)
      : '';
    let connection =
      this.kept && this.kept.agent === agent ? this.kept.connection : undefined;
    if (!connection) {
      this.kept?.connection?.close();
      if (url.protocol === 'https:' && agent?.constructor === https.Agent) {
        const options = (
          agent as https.Agent & { options: Record<string, unknown> }
        ).options;
        connection = new KeptConnection({ origin: url, tls: options });
      } else if (
        url.protocol === 'http:' &&
        (!agent || agent.constructor === http.Agent)
      ) {
        connection = new KeptConnection({ origin: url });
      }
    }
    this.kept = { connection, headers, prefix, agent, at: this.now() };
    return this.kept;
  }
}
