import { scrubError } from '@infrared-clusters/plugin-infrared-common';
import type { ErrorRequestHandler } from 'express';

/**
 * Passes every error but the API's own validation errors (which name fields and never echo a
 * value) through -common's scrubber before Backstage's error handler answers and logs it: an
 * error from Kubernetes, git or GitHub may quote a token.
 */
export const scrubErrors: ErrorRequestHandler = (err, _req, _res, next) => {
  next(Array.isArray(err?.errors) ? err : scrubError(err));
};
