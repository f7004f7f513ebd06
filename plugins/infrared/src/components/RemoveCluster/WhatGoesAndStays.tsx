import Typography from '@material-ui/core/Typography';
import {
  ARGOCD_NAMESPACE,
  argoSecretName,
  ClusterView,
  DEFAULT_TOFU_NAMESPACE,
  INFRARED_NAMESPACE,
  kubeconfigSecretName,
  tofuStateSecretName,
} from '@infrared-clusters/plugin-infrared-common';

/** The removal's two lists: what is removed with the Cluster, and what stays (the gitops file, the cloud). */
export const WhatGoesAndStays = ({ cluster }: { cluster: ClusterView }) => {
  const { name } = cluster;
  const last = cluster.provision?.status;
  const destroyed =
    last?.action === 'destroy' && last.phase === 'Succeeded' ? last : undefined;
  const gitopsFile = cluster.gitopsPath
    ? `the app-of-apps file ${cluster.gitopsPath} in the gitops repo`
    : 'the app-of-apps file in the gitops repo, if registration wrote one';
  return (
    <>
      <Typography variant="subtitle2">What is removed</Typography>
      <ul data-testid="removed">
        <li>the Cluster {name}</li>
        {cluster.connection === 'inCluster' ? (
          <li>
            nothing else: it is reached in-cluster, so it has no kubeconfig
            Secret and no Argo CD cluster Secret
          </li>
        ) : (
          <>
            <li>
              its kubeconfig Secret {kubeconfigSecretName(name)} in namespace{' '}
              {INFRARED_NAMESPACE}
            </li>
            <li>
              its Argo CD cluster Secret {argoSecretName(name)} in namespace{' '}
              {ARGOCD_NAMESPACE}: Argo CD stops deploying to the cluster
            </li>
          </>
        )}
      </ul>
      <Typography variant="subtitle2">What stays</Typography>
      <ul data-testid="stays">
        <li>{gitopsFile}: remove it with a pull request</li>
        <li>everything on the cluster itself: nothing on {name} is deleted</li>
        {cluster.template && (
          <li data-testid="stays-cloud">
            {destroyed
              ? `nothing OpenTofu built from template ${cluster.template.module}: its destroy (Job ${destroyed.job}) succeeded. What stays is`
              : `the cloud resources OpenTofu built from template ${cluster.template.module}: removing the cluster does not destroy them, and they cost money until you destroy them (run the destroy action first), along with`}{' '}
            the OpenTofu state Secret {tofuStateSecretName(name)} in the
            OpenTofu Jobs' namespace (infrared.provisioning.namespace, default{' '}
            {DEFAULT_TOFU_NAMESPACE})
          </li>
        )}
      </ul>
    </>
  );
};
