import { LightGetTooLargeError } from './lightGet';

/** One HTTP/1.1 answer as read from a connection. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The server closes the connection after this answer. */
  close: boolean;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*([^\r]*)/i;
const TRANSFER_ENCODING = /\r\ntransfer-encoding:[ \t]*([^\r]*)/i;
const CONNECTION = /\r\nconnection:[ \t]*([^\r]*)/i;

/** Reads one HTTP/1.1 answer from the bytes of a connection: Content-Length, chunked, or to the end. */
export class AnswerReader {
  private buffer = Buffer.alloc(0);
  private head?: Omit<Answer, 'body'> & {
    bodyAt: number;
    length?: number;
    chunked: boolean;
  };

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): Answer | undefined {
    this.buffer = this.buffer.length
      ? Buffer.concat([this.buffer, chunk])
      : chunk;
    if (this.buffer.length > this.maxBytes + 64 * 1024) {
      throw new LightGetTooLargeError(this.maxBytes);
    }
    if (!this.head && !this.readHead()) return undefined;
    return this.body();
  }

  /** The answer when the connection ended: one read to the end, or none (cut short). */
  end(): Answer | undefined {
    const head = this.head;
    if (!head || head.chunked || head.length !== undefined) return undefined;
    return { ...head, body: this.buffer.subarray(head.bodyAt), close: true };
  }

  private readHead(): boolean {
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0) return false;
    const head = this.buffer.toString('latin1', 0, end);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
    if (!status)
      throw new Error(`not an HTTP answer: ${head.split('\r\n')[0]}`);
    if (status < 200) {
      // an interim answer (100 Continue): the real one follows
      this.buffer = this.buffer.subarray(end + 4);
      return this.readHead();
    }
    const header = (pattern: RegExp) => pattern.exec(head)?.[1].trim();
    const noBody = status === 204 || status === 304;
    const length = noBody ? '0' : header(CONTENT_LENGTH);
    const chunked = !noBody && /chunked/i.test(header(TRANSFER_ENCODING) ?? '');
    this.head = {
      status,
      // every header only for an answer that is not a success (Retry-After of a 429)
      headers: status < 300 ? {} : headersOf(head),
      bodyAt: end + 4,
      length: length === undefined ? undefined : Number(length),
      chunked,
      close:
        /close/i.test(header(CONNECTION) ?? '') ||
        (length === undefined && !chunked),
    };
    return true;
  }

  private body(): Answer | undefined {
    const head = this.head!;
    const { status, headers, close } = head;
    if (head.chunked) {
      const body = readChunks(this.buffer, head.bodyAt, this.maxBytes);
      return body && { status, headers, close, body };
    }
    if (head.length === undefined) return undefined; // read to the end
    if (head.length > this.maxBytes) {
      throw new LightGetTooLargeError(this.maxBytes);
    }
    if (this.buffer.length - head.bodyAt < head.length) return undefined;
    const body = this.buffer.subarray(head.bodyAt, head.bodyAt + head.length);
    return { status, headers, close, body };
  }
}

/** The headers of an answer's head, by lower-case name. */
function headersOf(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      headers[line.slice(0, colon).trim().toLowerCase()] = line
        .slice(colon + 1)
        .trim();
    }
  }
  return headers;
}

/** The body of a chunked answer once all of it is in `buffer` (from `at`), else undefined. */
function readChunks(
  buffer: Buffer,
  at: number,
  maxBytes: number,
): Buffer | undefined {
  const parts: Buffer[] = [];
  let size = 0;
  for (let pos = at; ; ) {
    const lineEnd = buffer.indexOf(CRLF, pos);
    if (lineEnd < 0) return undefined;
    const chunk = parseInt(
      buffer.subarray(pos, lineEnd).toString('latin1').split(';')[0],
      16,
    );
    if (Number.isNaN(chunk)) throw new Error('a malformed chunked answer');
    if (chunk === 0) {
      // the last chunk, then trailers up to an empty line
      const rest = buffer.subarray(lineEnd + 2);
      const finished =
        rest.subarray(0, 2).equals(CRLF) || rest.indexOf(HEADER_END) >= 0;
      return finished ? Buffer.concat(parts) : undefined;
    }
    size += chunk;
    if (size > maxBytes) throw new LightGetTooLargeError(maxBytes);
    const start = lineEnd + 2;
    if (buffer.length < start + chunk + 2) return undefined;
    parts.push(buffer.subarray(start, start + chunk));
    pos = start + chunk + 2;
  }
}
