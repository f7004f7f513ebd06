import type { FieldError } from '@infrared-clusters/plugin-infrared-common';
import type { ErrorRequestHandler } from 'express';
import { validationError } from './validationError';

/**
 * The fields of a refusal by openapi.yaml's validator (express-openapi-validator, through
 * @backstage/backend-openapi-utils, which keeps only its message): ajv's text, one
 * `request/<place>/<field> <reason>` per problem, or `Unknown query parameter '<name>'`.
 * Undefined for any other message.
 */
export function specFieldErrors(message: string): FieldError[] | undefined {
  const unknown = /^Unknown query parameter '([^']*)'$/.exec(message);
  if (unknown) {
    return [{ field: unknown[1], message: 'is not a parameter of this route' }];
  }
  if (!/^request\/(body|query|params|path|headers)\b/.test(message)) {
    return undefined;
  }
  return message.split(/, (?=request\/)/).map(part => {
    const m = /^request\/(\w+)((?:\/[^\s/]+)*) ([^]*)$/.exec(part);
    if (!m) return { field: 'body', message: part };
    const [, place, path, reason] = m;
    const field = path ? path.slice(1).split('/').join('.') : place;
    return { field, message: `${reason} (openapi.yaml)` };
  });
}

/**
 * Gives the spec validator's 400 the shape of the API's own field errors: `invalid request:
 * <field>: <reason>; ...` with the list in `errors`. Every other error goes on as it is.
 */
export const specErrors: ErrorRequestHandler = (err, _req, _res, next) => {
  if (err?.name === 'InputError' && !Array.isArray(err.errors)) {
    const errors = specFieldErrors(String(err.message));
    if (errors) {
      next(validationError(errors));
      return;
    }
  }
  next(err);
};
