import type {
  BackstageCredentials,
  HttpAuthService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
import {
  infraredAllowlistUpdatePermission,
  infraredClusterCreatePermission,
  infraredClusterDeletePermission,
  infraredClusterProvisionPermission,
  infraredClusterReadPermission,
} from '@infrared-clusters/plugin-infrared-common';
import {
  AuthorizeResult,
  type BasicPermission,
} from '@backstage/plugin-permission-common';
import type { Request } from 'express';
import type { PlacementCaller } from '../placement';

const ACTIONS: Record<string, string> = {
  [infraredClusterReadPermission.name]: 'read clusters',
  [infraredClusterCreatePermission.name]: 'register clusters',
  [infraredClusterDeletePermission.name]: 'remove clusters',
  [infraredAllowlistUpdatePermission.name]: "change an org's cluster allowlist",
  [infraredClusterProvisionPermission.name]:
    "set a built cluster's OpenTofu action (plan, apply, destroy)",
};

/**
 * The router's two questions to the permission framework: may the caller do this (403 naming the
 * permission when not), and who is the caller for placement (their user ref, and whether they may
 * change allowlists, i.e. are a platform admin).
 */
export function createAuthorization(options: {
  httpAuth: HttpAuthService;
  permissions: PermissionsService;
}) {
  const { httpAuth, permissions } = options;

  async function authorize(
    req: Request,
    permission: BasicPermission,
  ): Promise<BackstageCredentials> {
    const credentials = await httpAuth.credentials(req);
    const [decision] = await permissions.authorize([{ permission }], {
      credentials,
    });
    if (decision.result !== AuthorizeResult.ALLOW) {
      throw new NotAllowedError(
        `only platform admins may ${ACTIONS[permission.name]} (permission ${
          permission.name
        })`,
      );
    }
    return credentials;
  }

  async function caller(req: Request): Promise<PlacementCaller> {
    const credentials = await httpAuth.credentials(req);
    const [decision] = await permissions.authorize(
      [{ permission: infraredAllowlistUpdatePermission }],
      { credentials },
    );
    const principal = credentials.principal as {
      type: string;
      userEntityRef?: string;
      subject?: string;
    };
    return {
      userEntityRef:
        principal.type === 'user' ? principal.userEntityRef : undefined,
      service: principal.type === 'service' ? principal.subject : undefined,
      platformAdmin: decision.result === AuthorizeResult.ALLOW,
    };
  }

  return { authorize, caller };
}
