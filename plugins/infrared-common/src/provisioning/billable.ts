import type { FieldError } from '../fieldErrors';

/**
 * The one rule for billable OpenTofu actions, whatever the route (POST /v1/clusters or the action
 * route): apply and destroy change real cloud resources, so they need `acknowledgeBillable: true`.
 * Returns the refusal naming the field, or undefined when the action may go ahead. (Who may ask for
 * them, permission `infrared.cluster.provision`, is the router's check.)
 *
 * @public
 */
export function billableActionProblem(
  action: unknown,
  acknowledgeBillable: unknown,
): FieldError | undefined {
  if (
    acknowledgeBillable !== undefined &&
    typeof acknowledgeBillable !== 'boolean'
  ) {
    return {
      field: 'acknowledgeBillable',
      message: 'acknowledgeBillable must be true or false',
    };
  }
  if (!isBillableAction(action) || acknowledgeBillable === true)
    return undefined;
  return {
    field: 'acknowledgeBillable',
    message:
      action === 'apply'
        ? 'apply creates real cloud resources in the account the credentials belong to, and they cost money until you destroy them: send acknowledgeBillable: true to go ahead'
        : 'destroy deletes the cloud resources the cluster was built with: send acknowledgeBillable: true to go ahead',
  };
}

/**
 * Whether an action changes cloud resources (apply, destroy): it needs permission
 * `infrared.cluster.provision` and `acknowledgeBillable: true` on every route.
 *
 * @public
 */
export function isBillableAction(
  action: unknown,
): action is 'apply' | 'destroy' {
  return action === 'apply' || action === 'destroy';
}
