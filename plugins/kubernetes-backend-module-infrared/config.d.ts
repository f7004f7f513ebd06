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
    };
  };
}
