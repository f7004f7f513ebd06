import http from 'node:http';
import https from 'node:https';
import type { RequestContext } from '@kubernetes/client-node';

/** The answer of a GET that failed with an HTTP status: shaped like client-node's ApiException. */
export class LightGetStatusError extends Error {
  constructor(
    readonly code: number,
    readonly body: unknown,
    /** The answer's headers (Retry-After of a 429 is read from them). */
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${code}`);
  }
}

/**
 * An answer larger than the reader's bound: the caller asks again for less (a smaller LIST page).
 */
export class LightGetTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the answer is too large (over ${limitBytes} bytes)`);
  }
}

/**
 * At most this much of one answer is read. A LIST reads pages (`listAllPages`), which ask for a
 * smaller page when one is larger than this, so growth never turns into a failed read.
 */
export const MAX_ANSWER_BYTES = 4 * 2 ** 20;

/**
 * Sends the GET a client-node RequestContext describes (URL, headers, agent: the credentials and the
 * keep-alive or proxy agent the client's authentication put there) with Node's own http(s), and
 * parses the JSON answer. It skips client-node's fetch layer and model deserializer, which cost the
 * probe three times the CPU of the request itself (issue 17: CPU at rest at 1,000 clusters).
 */
export function lightGet<T>(
  context: RequestContext,
  signal: AbortSignal,
  maxBytes = MAX_ANSWER_BYTES,
): Promise<T> {
  const url = new URL(context.getUrl());
  const transport = url.protocol === 'http:' ? http : https;
  return new Promise<T>((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'GET',
        headers: context.getHeaders(),
        agent: context.getAgent() as http.Agent | undefined,
        signal,
      },
      response => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            response.destroy(new LightGetTooLargeError(maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: kept as text for the message
          }
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(body as T);
          else {
            const headers: Record<string, string> = {};
            for (const [key, value] of Object.entries(response.headers)) {
              if (typeof value === 'string') headers[key] = value;
            }
            reject(new LightGetStatusError(status, body, headers));
          }
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}
