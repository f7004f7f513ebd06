import type { RegistrarApi } from '../api';
import type { RegistrarAction, RegistrarSecret } from '../types';

/**
 * One action as one API call: POST, PUT (resourceVersion-preconditioned) or DELETE (UID- and, for
 * demoted-TTL deletes, resourceVersion-preconditioned). Resolves to the Secret as stored, or
 * undefined for a delete; throws what the API server answered (see the planner's writeFailure).
 */
export async function applyRegistrarAction(
  api: RegistrarApi,
  action: RegistrarAction,
  targetNamespace: string,
  signal?: AbortSignal,
): Promise<RegistrarSecret | undefined> {
  switch (action.type) {
    case 'create':
      return api.createSecret(action.secret, signal);
    case 'update':
    case 'demote':
      return api.replaceSecret(action.secret, signal);
    default:
      await api.deleteSecret(
        targetNamespace,
        action.name,
        { uid: action.uid, resourceVersion: action.resourceVersion },
        signal,
      );
      return undefined;
  }
}
