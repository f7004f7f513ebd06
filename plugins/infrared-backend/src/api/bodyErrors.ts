import { InputError } from '@backstage/errors';
import express, {
  type ErrorRequestHandler,
  type RequestHandler,
} from 'express';

/** Largest request body: a kubeconfig is a few KiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** 413, with a message saying the limit (Backstage's error handler reads `statusCode`). */
export class PayloadTooLargeError extends Error {
  readonly name = 'PayloadTooLargeError';
  readonly statusCode = 413;
}

/**
 * Turns express.json's errors into ones with a clear message and nothing of the body in them
 * (body-parser attaches the raw body to its parse errors; those must never reach a response or a log).
 */
export const bodyErrors: ErrorRequestHandler = (err, _req, _res, next) => {
  const type = (err as { type?: string })?.type;
  if (type === 'entity.too.large') {
    const length = Number((err as { length?: number }).length);
    const size = Number.isFinite(length) ? ` (${length} bytes)` : '';
    next(
      new PayloadTooLargeError(
        `the request body${size} is over the limit of 1 MiB: a kubeconfig is far smaller; send only the fields the API takes`,
      ),
    );
    return;
  }
  if (type === 'entity.parse.failed') {
    const at = /position (\d+)/.exec(String(err?.message ?? ''));
    next(
      new InputError(
        `the request body is not valid JSON${
          at ? ` (at position ${at[1]})` : ''
        }`,
      ),
    );
    return;
  }
  if (type === 'entity.verify.failed') {
    next(new InputError((err as Error).message));
    return;
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    next(new InputError('the request body must be UTF-8 JSON'));
    return;
  }
  next(err);
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Refuses a body that is not UTF-8. Decoding would otherwise turn each invalid byte into U+FFFD,
 * and a kubeconfig's token or server would be stored with characters its sender never wrote.
 */
function verifyUtf8(_req: unknown, _res: unknown, body: Buffer): void {
  try {
    utf8.decode(body);
  } catch {
    throw new Error(
      'the request body is not valid UTF-8: send JSON encoded as UTF-8',
    );
  }
}

const parseJson = express.json({ limit: MAX_BODY_BYTES, verify: verifyUtf8 });

/** express.json with the limit above, its errors turned by `bodyErrors`. */
export const jsonBody: RequestHandler = (req, res, next) =>
  parseJson(req, res, error =>
    error ? bodyErrors(error, req, res, next) : next(),
  );
