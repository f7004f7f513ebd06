import { useEffect, useState } from 'react';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import {
  ArgoCdConnection,
  argoCdConnectionOf,
} from '../argocd/argoCdConnection';
import { redactCredentials } from '../argocd/redactCredentials';
import type { ArgoCdApi } from '../argocd/types';

/**
 * Asks Argo CD (once per cluster and server shown) how its connection to the cluster goes;
 * 'loading' until it answers. A failed request is Unknown, with the reason.
 */
export function useArgoCdConnection(
  api: ArgoCdApi,
  cluster: Pick<ClusterView, 'name' | 'argoServer'>,
): ArgoCdConnection | 'loading' {
  const [result, setResult] = useState<ArgoCdConnection | 'loading'>('loading');
  const { name, argoServer } = cluster;
  useEffect(() => {
    const controller = new AbortController();
    setResult('loading');
    api.listClusters(controller.signal).then(
      items => {
        if (!controller.signal.aborted) {
          setResult(argoCdConnectionOf({ name, argoServer }, items));
        }
      },
      (error: Error) => {
        if (controller.signal.aborted) return;
        setResult({
          status: 'Unknown',
          reason: `Argo CD could not be asked: ${redactCredentials(
            error.message,
          )}`,
        });
      },
    );
    return () => controller.abort();
  }, [api, name, argoServer]);
  return result;
}
