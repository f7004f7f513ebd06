import { Fragment, ReactNode } from 'react';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { useApiHolder } from '@backstage/frontend-plugin-api';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { argoCdApiRef } from '../../api';
import { GitopsPathCell } from '../GitopsPathCell';
import { RelativeTime } from '../RelativeTime';
import { ArgoCdConnectionFact } from './ArgoCdConnectionFact';
import { ChangeFact } from './ChangeFact';
import { RegistrarPassFact } from './RegistrarPassFact';

const useStyles = makeStyles(theme => ({
  list: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: theme.spacing(2),
    rowGap: theme.spacing(0.5),
    margin: 0,
  },
  term: { color: theme.palette.text.secondary },
  // Words stay whole; only a URL or path longer than the line breaks where it must.
  value: { margin: 0, overflowWrap: 'anywhere' },
}));

const CONNECTION = {
  inCluster: 'The management cluster itself (in-cluster service account)',
  kubeconfig: 'Kubeconfig (stored in a Secret, never shown)',
  none: 'None yet',
};

/** A discovered child's row: what the registrar's last pass did with it. */
function registrarRows(cluster: ClusterView): Array<[string, ReactNode]> {
  if (!cluster.discovered) return [];
  return [
    [
      "Registrar's last pass",
      <RegistrarPassFact discovered={cluster.discovered} />,
    ],
  ];
}

/**
 * The cluster's spec and status, one line each, and what Argo CD says of it when Argo CD's API
 * is reachable through the proxy (`infrared.argocd.proxyPath`); without it the row is not there.
 */
export const ClusterFacts = ({ cluster }: { cluster: ClusterView }) => {
  const classes = useStyles();
  const argoCd = useApiHolder().get(argoCdApiRef);
  const argoCdRow: Array<[string, ReactNode]> = argoCd?.proxyPath
    ? [
        [
          'Argo CD sees this cluster',
          <ArgoCdConnectionFact api={argoCd} cluster={cluster} />,
        ],
      ]
    : [];
  const facts: Array<[string, ReactNode]> = [
    ['Type', cluster.type],
    ['Connection', CONNECTION[cluster.connection] ?? cluster.connection],
    ['Flavor', cluster.flavor],
    ['Provider', cluster.provider],
    ['Region', cluster.region],
    ['Server override', cluster.server],
    ['Kubernetes version', cluster.kubernetesVersion],
    ['Nodes', cluster.nodes],
    [
      'Argo CD Secret',
      cluster.discovered?.registered === false
        ? 'none: the registrar has not registered it'
        : cluster.argoSecret,
    ],
    ['Argo CD server', cluster.argoServer],
    ...argoCdRow,
    [
      'Gitops path',
      cluster.gitopsPath || cluster.pullRequest ? (
        <GitopsPathCell cluster={cluster} />
      ) : undefined,
    ],
    [
      'Change',
      cluster.pullRequest && <ChangeFact pullRequest={cluster.pullRequest} />,
    ],
    [
      'Discovered',
      cluster.discovered &&
        `yes, from namespace ${cluster.discovered.sourceNamespace}`,
    ],
    ...registrarRows(cluster),
    ['Created', cluster.createdAt && <RelativeTime iso={cluster.createdAt} />],
  ];
  return (
    <dl className={classes.list}>
      {facts.map(([term, value]) => (
        <Fragment key={term}>
          <dt className={classes.term}>
            <Typography variant="body2">{term}</Typography>
          </dt>
          <dd className={classes.value}>
            <Typography variant="body2" component="div">
              {value === undefined || value === '' ? '—' : value}
            </Typography>
          </dd>
        </Fragment>
      ))}
    </dl>
  );
};
