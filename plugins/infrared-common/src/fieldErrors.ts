/**
 * One reason a request or a kubeconfig was refused, with the field it is about.
 *
 * @public
 */
export interface FieldError {
  /** Where the problem is, e.g. `name` or `kubeconfig.users[0].user.exec`. */
  field: string;
  /** What is wrong and, where it helps, how to fix it. */
  message: string;
}
