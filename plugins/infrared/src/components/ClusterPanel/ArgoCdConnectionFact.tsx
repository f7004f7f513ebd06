import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import type { ArgoCdApi } from '../../argocd/types';
import { useArgoCdConnection } from '../../hooks/useArgoCdConnection';

/**
 * "Successful", "Failed (Argo CD's message)" or "Unknown (why)": whether Argo CD reached the
 * cluster with the Secret Infrared wrote, as Argo CD's `GET /api/v1/clusters` says. The time
 * of Argo CD's last attempt shows on hover.
 */
export const ArgoCdConnectionFact = ({
  api,
  cluster,
}: {
  api: ArgoCdApi;
  cluster: ClusterView;
}) => {
  const connection = useArgoCdConnection(api, cluster);
  if (connection === 'loading') {
    return <span data-testid="argocd-connection">Asking Argo CD…</span>;
  }
  let text: string = connection.status;
  if (connection.status === 'Failed') text += ` (${connection.message})`;
  if (connection.status === 'Unknown') text += ` (${connection.reason})`;
  return (
    <span
      data-testid="argocd-connection"
      title={
        connection.attemptedAt
          ? `Argo CD last tried at ${connection.attemptedAt}`
          : undefined
      }
    >
      {text}
    </span>
  );
};
