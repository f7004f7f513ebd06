export interface Config {
  infrared?: {
    /** Argo CD's own view of each cluster, read through Backstage's proxy (`@backstage/plugin-proxy-backend`). */
    argocd?: {
      /**
       * The `proxy.endpoints` key in front of Argo CD's `/api`, e.g. `/argocd/api`: the cluster panel
       * reads `GET <backend>/api/proxy<proxyPath>/v1/clusters` and shows "Argo CD sees this cluster".
       * Unset, the panel has no such row and nothing asks Argo CD. The token stays in the proxy
       * endpoint's headers, on the backend.
       * @visibility frontend
       */
      proxyPath?: string;
    };
  };
}
