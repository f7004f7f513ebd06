export interface Config {
  infrared?: {
    /** The Kubernetes plugin's view of Infrared's clusters (plugin-kubernetes-backend-module-infrared). */
    kubernetes?: {
      /**
       * Skip the pod metrics lookup (metrics.k8s.io) on every Infrared cluster: set it when the
       * clusters run no metrics-server, else the Kubernetes tab lists the lookup's 404 as an error.
       * Default false.
       */
      skipMetricsLookup?: boolean;
      /**
       * The Kubernetes plugin's proxy (`/api/kubernetes/proxy`, header `Backstage-Kubernetes-Cluster`)
       * to Infrared's clusters. Closed by default: a proxy request to an Infrared cluster gets 403,
       * whatever the permission policy says of `kubernetes.proxy`. Opened, a request goes as the
       * cluster's viewer kubeconfig when it names one, else as Argo CD's credential.
       */
      proxy?: {
        /** Open the proxy to every Infrared cluster. Default false. */
        allowAll?: boolean;
        /** The Infrared clusters (Cluster names) the proxy is open to. Default none. */
        clusters?: string[];
      };
    };
  };
}
