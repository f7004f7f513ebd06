import { InputError } from '@backstage/errors';
import type { FieldError } from '@infrared-clusters/plugin-infrared-common';

/** 400 naming every field and reason; the list is in `errors` for clients that show it per field. */
export function validationError(errors: FieldError[]): InputError {
  const error = new InputError(
    `invalid request: ${errors
      .map(e => `${e.field}: ${e.message}`)
      .join('; ')}`,
  );
  return Object.assign(error, { errors });
}
