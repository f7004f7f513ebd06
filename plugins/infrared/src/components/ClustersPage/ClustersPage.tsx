import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import {
  Content,
  ContentHeader,
  Header,
  Page,
} from '@backstage/core-components';
import type { ClusterRemovalView } from '@infrared-clusters/plugin-infrared-common';
import { useClusterList } from '../../hooks/useClusterList';
import { useClusterPlacement } from '../../hooks/useClusterPlacement';
import { placementOf } from '../../lib/clusterPlacement';
import { useClusterPermissions } from '../../hooks/useClusterPermissions';
import { filterClusters, StatusFilter } from '../../lib/filterClusters';
import { ClusterPanel } from '../ClusterPanel';
import { GoneAllowlists } from '../ClusterPlacement';
import { ClustersTable } from '../ClustersTable';
import { ClustersToolbar } from '../ClustersToolbar';
import { Loading, LoadError, NoClusters, NoMatches } from '../ClustersStates';
import { RegisterClusterButton } from '../RegisterCluster/RegisterClusterButton';
import { InstallationNotice } from './InstallationNotice';
import { useSelectedCluster } from '../../hooks/useSelectedCluster';
import { useRegisterRequest } from './useRegisterRequest';

// The form and the kubeconfig checks (yaml, zod) load when the dialog opens, not with the table.
const RegisterClusterDialog = lazy(() =>
  import('../RegisterCluster/RegisterClusterDialog').then(m => ({
    default: m.RegisterClusterDialog,
  })),
);

/** How often the list and a registration in progress are polled. */
export const DEFAULT_POLL_INTERVAL_MS = 3000;

/**
 * Props of the Clusters page.
 *
 * @public
 */
export interface ClustersPageProps {
  pollIntervalMs?: number;
}

const ClustersContent = ({
  pollIntervalMs = DEFAULT_POLL_INTERVAL_MS,
}: ClustersPageProps) => {
  const list = useClusterList(pollIntervalMs);
  const permissions = useClusterPermissions();
  const placement = useClusterPlacement();
  const [text, setText] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const { selected, select: setSelected } = useSelectedCluster();
  // `?register=<name>` (the placement card's "Register it") opens the form with the name filled in.
  const request = useRegisterRequest();
  const [registering, setRegistering] = useState(request.name !== undefined);

  const all = list.clusters;
  const shown = useMemo(
    () => (all ? filterClusters(all, text, status) : []),
    [all, text, status],
  );
  const selectedCluster = all?.find(c => c.name === selected);
  const { refresh, forget } = list;
  const [removal, setRemoval] = useState<ClusterRemovalView>();
  const onRemoved = useCallback(
    (name: string, answer: ClusterRemovalView) => {
      setRemoval(answer);
      setSelected(undefined);
      forget(name);
      refresh();
    },
    [forget, refresh, setSelected],
  );

  const readOnly =
    !permissions.register.allowed &&
    !permissions.register.checking &&
    !permissions.remove.allowed &&
    !permissions.remove.checking;

  let body;
  if (!all && list.error) {
    body = <LoadError error={list.error} onRetry={refresh} />;
  } else if (!all) {
    body = <Loading />;
  } else if (all.length === 0) {
    body = <NoClusters canRegister={permissions.register.allowed} />;
  } else {
    body = (
      <>
        <ClustersToolbar
          text={text}
          onText={setText}
          status={status}
          onStatus={setStatus}
          shown={shown.length}
          total={all.length}
          inProgress={list.inProgress}
          pollIntervalMs={list.pollDelayMs}
          onRefresh={refresh}
        />
        {list.error && (
          <Alert severity="warning" style={{ marginBottom: 16 }}>
            Refreshing failed: {list.error.message}. The table shows the last
            list that loaded.
          </Alert>
        )}
        {shown.length ? (
          <ClustersTable
            clusters={shown}
            filterKey={`${status}|${text}`}
            onOpen={setSelected}
            placement={placement.byCluster}
          />
        ) : (
          <NoMatches
            total={all.length}
            onClear={() => {
              setText('');
              setStatus('all');
            }}
          />
        )}
      </>
    );
  }

  return (
    <>
      <ContentHeader title="All clusters">
        <RegisterClusterButton
          allowance={permissions.register}
          onClick={() => setRegistering(true)}
        />
      </ContentHeader>
      <InstallationNotice pollMs={pollIntervalMs * 10} />
      {readOnly && (
        <Alert severity="info" style={{ marginBottom: 16 }}>
          <Typography variant="body2">
            You see this page read-only: only platform admins can register or
            remove clusters.
          </Typography>
        </Alert>
      )}
      {removal && (
        <Alert
          severity={removal.zones.length ? 'warning' : 'success'}
          style={{ marginBottom: 16 }}
          onClose={() => setRemoval(undefined)}
          aria-label="Removal"
        >
          {removal.message}
        </Alert>
      )}
      {all && (
        <GoneAllowlists
          orgs={placement.orgs}
          clusters={all.map(c => c.name)}
          allowance={permissions.allowlist}
          onTakeOff={(org, cluster) =>
            placement.setAllowed(org, cluster, false)
          }
        />
      )}
      {body}
      <ClusterPanel
        cluster={selectedCluster}
        onClose={() => setSelected(undefined)}
        remove={permissions.remove}
        onRemoved={onRemoved}
        onChanged={() => refresh()}
        placement={
          placement.byCluster && selectedCluster
            ? placementOf(placement.byCluster, selectedCluster.name)
            : undefined
        }
        orgs={placement.orgs}
        placementError={placement.error}
        allowlist={permissions.allowlist}
        onAllowedChange={placement.setAllowed}
      />
      {registering && permissions.register.allowed && (
        <Suspense fallback={null}>
          <RegisterClusterDialog
            initialName={request.name}
            onClose={() => {
              setRegistering(false);
              request.clear();
            }}
            onRegistered={() => refresh()}
            pollIntervalMs={pollIntervalMs}
          />
        </Suspense>
      )}
    </>
  );
};

/**
 * The Clusters page: every cluster Argo CD on the management cluster deploys to.
 *
 * The page's state lives below `Page`, in `ClustersContent`: `Page` gives its children a new theme
 * object each time it renders, and a new theme makes every MUI component under it build its
 * style sheets again (on a cold load that re-render cost as much as the first render, and each
 * keystroke in the filter paid it too; bench/ui).
 */
export const ClustersPage = (props: ClustersPageProps) => (
  <Page themeId="tool">
    <Header
      title="Clusters"
      subtitle="Workload clusters that Argo CD on the management cluster deploys to"
    />
    <Content>
      <ClustersContent {...props} />
    </Content>
  </Page>
);
