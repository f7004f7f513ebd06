import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { RequestContext } from '@kubernetes/client-node';
import { IDLE_CONNECTION_MS } from './keepAlive';
import { AnswerReader, type Answer } from './httpAnswer';
import { LightGetStatusError, MAX_ANSWER_BYTES } from './lightGet';

/** The TLS options of an https.Agent that say how to connect (the agent's own fields are left). */
const TLS_FIELDS = [
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'rejectUnauthorized',
  'servername',
  'ciphers',
  'minVersion',
  'maxVersion',
  'secureProtocol',
  'checkServerIdentity',
  'crl',
  'ecdhCurve',
  'sigalgs',
] as const;

/** Where a kept connection goes: an origin, and TLS options unless it is plain http. */
export interface KeptTarget {
  origin: URL;
  /** The TLS options (an https.Agent's `options`); undefined for an http origin. */
  tls?: Record<string, unknown>;
  /** How long an idle connection stays open. Default IDLE_CONNECTION_MS. */
  idleMs?: number;
}

/** An error of a request sent on a kept connection the server had closed before any answer. */
const STALE = Symbol('stale');

/** What http.request rejects with when its signal aborts: an AbortError with the reason. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted'), {
    name: 'AbortError',
    code: 'ABORT_ERR',
    cause: signal.reason,
  });
}

/**
 * GETs over one connection that stays open (HTTP/1.1, one request at a time), written and read
 * without Node's http client: a request is one write of bytes made once per header set, an answer
 * is read by its Content-Length or chunks. A probe over it costs about a seventh of the CPU of one
 * through http.request, whose agent, ClientRequest and header handling dominate a `/version`
 * probe's cost (issue 25: CPU at rest, 1,000 probes a pass). Answers and failures are shaped as
 * lightGet's (LightGetStatusError, LightGetTooLargeError, the socket's error codes, an AbortError
 * on the signal), so a caller classifies them the same way.
 */
export class KeptConnection {
  private socket?: net.Socket;
  private secureContext?: tls.SecureContext;
  private turn: Promise<unknown> = Promise.resolve();
  private readonly requests = new Map<string, Buffer>();
  private requestHeaders?: Record<string, string>;

  constructor(private readonly target: KeptTarget) {}

  /** GET `path` with `headers`; the JSON answer of a 2xx status, else a LightGetStatusError. */
  get<T>(
    path: string,
    headers: Record<string, string>,
    signal: AbortSignal,
    maxBytes = MAX_ANSWER_BYTES,
  ): Promise<T> {
    const run = this.turn.then(() =>
      this.exchange(this.request(path, headers), signal, maxBytes),
    );
    this.turn = run.catch(() => undefined);
    return run.then(answer => {
      const text = answer.body.toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: kept as text for the message
      }
      if (answer.status >= 200 && answer.status < 300) return body as T;
      throw new LightGetStatusError(answer.status, body, answer.headers);
    });
  }

  /** Closes the connection (a later GET opens another). */
  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private request(path: string, headers: Record<string, string>): Buffer {
    // the bytes of a request, made once per path while the caller passes the same headers object
    if (headers !== this.requestHeaders) {
      this.requests.clear();
      this.requestHeaders = headers;
    }
    let bytes = this.requests.get(path);
    if (!bytes) {
      let text = `GET ${path} HTTP/1.1\r\nHost: ${this.target.origin.host}\r\n`;
      for (const [name, value] of Object.entries(headers)) {
        if (/[\r\n]/.test(name) || /[\r\n]/.test(String(value))) {
          throw new Error(`header ${name}: line breaks are not allowed`);
        }
        text += `${name}: ${value}\r\n`;
      }
      bytes = Buffer.from(`${text}Connection: keep-alive\r\n\r\n`, 'latin1');
      if (this.requests.size >= 16) this.requests.clear();
      this.requests.set(path, bytes);
    }
    return bytes;
  }

  private async exchange(
    request: Buffer,
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<Answer> {
    const reused = !!this.socket;
    try {
      return await this.once(request, signal, maxBytes);
    } catch (error) {
      // the server closed a kept connection as the request went out: once more on a new one
      if (reused && (error as { [STALE]?: boolean })[STALE]) {
        return this.once(request, signal, maxBytes);
      }
      throw error;
    }
  }

  private connect(): net.Socket {
    const { origin } = this.target;
    const host = origin.hostname.replace(/^\[(.*)\]$/, '$1');
    let socket: net.Socket;
    if (origin.protocol === 'http:') {
      socket = net.connect({ host, port: Number(origin.port || 80) });
    } else {
      const options: Record<string, unknown> = {};
      for (const field of TLS_FIELDS) {
        if (this.target.tls?.[field] !== undefined) {
          options[field] = this.target.tls[field];
        }
      }
      // what https.Agent does: SNI for a name, none for an address
      if (options.servername === undefined && !net.isIP(host)) {
        options.servername = host;
      }
      this.secureContext ??= tls.createSecureContext(options);
      socket = tls.connect({
        ...options,
        secureContext: this.secureContext,
        host,
        port: Number(origin.port || 443),
      });
    }
    socket.setNoDelay(true);
    socket.setTimeout(this.target.idleMs ?? IDLE_CONNECTION_MS, () =>
      this.drop(socket),
    );
    socket.on('error', () => this.drop(socket));
    socket.on('close', () => this.drop(socket));
    this.socket = socket;
    return socket;
  }

  private drop(socket: net.Socket): void {
    socket.destroy();
    if (this.socket === socket) this.socket = undefined;
  }

  /** One request and its answer on the kept socket (a new one when there is none). */
  private once(
    request: Buffer,
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<Answer> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    const socket = this.socket ?? this.connect();
    socket.ref();
    return new Promise<Answer>((resolve, reject) => {
      const reader = new AnswerReader(maxBytes);
      let got = false;
      // set below, once the listeners it removes are defined
      let done: (error?: unknown, answer?: Answer) => void = () => {};
      const onData = (chunk: Buffer) => {
        got = true;
        try {
          const answer = reader.push(chunk);
          if (answer) done(undefined, answer);
        } catch (error) {
          done(error);
        }
      };
      const onError = (error: Error) =>
        done(got ? error : Object.assign(error, { [STALE]: true }));
      const onEnd = () => {
        const answer = reader.end();
        if (answer) done(undefined, answer);
        else {
          const error = Object.assign(new Error('socket hang up'), {
            code: 'ECONNRESET',
          });
          done(got ? error : Object.assign(error, { [STALE]: true }));
        }
      };
      const onAbort = () => done(abortError(signal));
      done = (error, answer) => {
        done = () => {};
        socket.off('data', onData);
        socket.off('error', onError);
        socket.off('end', onEnd);
        socket.off('close', onEnd);
        signal.removeEventListener('abort', onAbort);
        if (error || !answer || answer.close) this.drop(socket);
        else socket.unref();
        if (error) reject(error);
        else resolve(answer!);
      };
      socket.on('data', onData);
      socket.once('error', onError);
      socket.once('end', onEnd);
      socket.once('close', onEnd);
      signal.addEventListener('abort', onAbort, { once: true });
      socket.write(request);
    });
  }
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
        path,
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
        path,
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
    this.kept = { connection, headers, agent, at: this.now() };
    return this.kept;
  }
}
