import {
  ConflictError,
  InputError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { KubeApiError } from '@infrared-clusters/infrared-kube';

/** What to do when the Cluster kind is unknown to the management cluster. */
export const CRD_MISSING =
  'the management cluster does not serve clusters.infrared.darkshift.io: apply the CRDs in deploy/crds (kubectl apply -f deploy/crds)';

/** A LIST of Clusters answered 404: the CRD is not installed. */
export function isCrdMissing(error: unknown): boolean {
  return (
    error instanceof KubeApiError &&
    error.code === 404 &&
    error.message.startsWith('LIST clusters')
  );
}

/**
 * A Kubernetes API error as the REST API reports it. Its message names the request and the API
 * server's reason (never a body or a credential).
 */
export function fromKubeError(error: unknown): Error {
  if (!(error instanceof KubeApiError)) return error as Error;
  if (isCrdMissing(error)) return new ServiceUnavailableError(CRD_MISSING);
  switch (error.code) {
    case 400:
    case 422:
      return new InputError(
        `the management cluster refused it: ${error.message}`,
      );
    case 404:
      return new NotFoundError(error.message);
    case 409:
      return new ConflictError(error.message);
    case 0:
    case 503:
      return new ServiceUnavailableError(
        `the management cluster's API server is not reachable: ${error.message}`,
      );
    default:
      return new Error(`the management cluster answered: ${error.message}`);
  }
}
