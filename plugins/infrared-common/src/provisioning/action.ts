/** The action of a built Cluster (plan, apply, destroy) and the action route's body. */
import type { FieldError } from '../fieldErrors';
import { billableActionProblem } from './billable';
import { isObject } from './json';
import {
  PROVISION_ACTIONS,
  type ProvisionAction,
  type ProvisionSpec,
} from './types';

/**
 * The action a spec asks for: `plan` unless it says otherwise.
 *
 * @public
 */
export function provisionAction(
  provision: Pick<ProvisionSpec, 'action'> | undefined,
): ProvisionAction {
  return provision?.action ?? 'plan';
}

/**
 * The request body of the action route: the action and, for apply or destroy, the acknowledgement.
 *
 * @public
 */
export interface SetProvisionActionRequest {
  action: ProvisionAction;
  /** Must be true for apply and destroy: the caller read that real, billable resources change. */
  acknowledgeBillable?: boolean;
}

/**
 * Validates the action route's body; apply and destroy need `acknowledgeBillable: true`.
 *
 * @public
 */
export function validateSetProvisionAction(
  body: unknown,
): { value: SetProvisionActionRequest } | { errors: FieldError[] } {
  if (!isObject(body)) {
    return {
      errors: [
        {
          field: 'body',
          message: 'the request body must be a JSON object {"action": ...}',
        },
      ],
    };
  }
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'action' && key !== 'acknowledgeBillable')
      errors.push({
        field: key || 'body', // an empty key still names where it is
        message: `unknown field "${key}": the body takes action and acknowledgeBillable`,
      });
  }
  const action = body.action as ProvisionAction;
  if (!PROVISION_ACTIONS.includes(action)) {
    errors.push({
      field: 'action',
      message: `action must be one of ${PROVISION_ACTIONS.join(
        ', ',
      )}, not ${JSON.stringify(body.action)}`,
    });
  }
  const ack = body.acknowledgeBillable;
  const billable = billableActionProblem(
    PROVISION_ACTIONS.includes(action) ? action : undefined,
    ack,
  );
  if (billable) errors.push(billable);
  return errors.length
    ? { errors }
    : { value: { action, acknowledgeBillable: ack === true } };
}
