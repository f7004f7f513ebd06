import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
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
import {
  useClusterPermissions,
  type ClusterPermissions,
} from '../../hooks/useClusterPermissions';
import { useClustersQuery } from '../../hooks/useClustersQuery';
import { useGoneAllowlists } from '../../hooks/useGoneAllowlists';
import { useSelectedCluster } from '../../hooks/useSelectedCluster';
import { useSelectedClusterView } from '../../hooks/useSelectedClusterView';
import { isFiltered } from '../../lib/clustersQuery';
import { ClusterPanel } from '../ClusterPanel';
import { RegisterClusterButton } from '../RegisterCluster/RegisterClusterButton';
import { ClustersBody } from './ClustersBody';
import { InstallationNotice } from './InstallationNotice';
import { PageNotices } from './PageNotices';
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

/** The page's list and what it loads beside it: the query (URL), placement, the open panel. */
function useClustersPageData(pollIntervalMs: number) {
  const search = useClustersQuery();
  const list = useClusterList(search.query, pollIntervalMs);
  const placement = useClusterPlacement();
  const { selected, select } = useSelectedCluster();
  const cluster = useSelectedClusterView(
    selected,
    list.clusters,
    list.generation,
  );
  const names = useMemo(() => list.clusters?.map(c => c.name), [list.clusters]);
  const gone = useGoneAllowlists(
    placement.orgs,
    names,
    !list.hasMore && !isFiltered(search.query),
    list.overall,
  );
  return { search, list, placement, selected, select, cluster, gone };
}

/** Whether the user may neither register nor remove (once the checks answered). */
function isReadOnly({ register, remove }: ClusterPermissions) {
  return (
    !register.allowed &&
    !register.checking &&
    !remove.allowed &&
    !remove.checking
  );
}

/** The last removal's answer, and what a removal does to the page: panel closed, list updated. */
function useRemoval(
  list: { forget: (name: string) => void; refresh: () => Promise<void> },
  select: (name?: string) => void,
) {
  const [removal, setRemoval] = useState<ClusterRemovalView>();
  const { forget, refresh } = list;
  const onRemoved = useCallback(
    (name: string, answer: ClusterRemovalView) => {
      setRemoval(answer);
      select(undefined);
      forget(name);
      refresh();
    },
    [forget, refresh, select],
  );
  return { removal, setRemoval, onRemoved };
}

const ClustersContent = ({
  pollIntervalMs = DEFAULT_POLL_INTERVAL_MS,
}: ClustersPageProps) => {
  const { search, list, placement, select, cluster, gone } =
    useClustersPageData(pollIntervalMs);
  const permissions = useClusterPermissions();
  // `?register=<name>` (the placement card's "Register it") opens the form with the name filled in.
  const request = useRegisterRequest();
  const [registering, setRegistering] = useState(request.name !== undefined);
  const { refresh } = list;
  const { removal, setRemoval, onRemoved } = useRemoval(list, select);
  const { register, remove } = permissions;

  return (
    <>
      <ContentHeader title="All clusters">
        <RegisterClusterButton
          allowance={register}
          onClick={() => setRegistering(true)}
        />
      </ContentHeader>
      <InstallationNotice pollMs={pollIntervalMs * 10} />
      <PageNotices
        readOnly={isReadOnly(permissions)}
        removal={removal}
        onCloseRemoval={() => setRemoval(undefined)}
        gone={gone}
        allowlist={permissions.allowlist}
        onTakeOff={(org, name) => placement.setAllowed(org, name, false)}
      />
      <ClustersBody
        list={list}
        search={search}
        orgs={placement.orgs}
        canRegister={register.allowed}
        onOpen={select}
        placement={placement.byCluster}
      />
      <ClusterPanel
        cluster={cluster}
        onClose={() => select(undefined)}
        remove={remove}
        onRemoved={onRemoved}
        onChanged={() => refresh()}
        placement={
          placement.byCluster && cluster
            ? placementOf(placement.byCluster, cluster.name)
            : undefined
        }
        orgs={placement.orgs}
        placementError={placement.error}
        allowlist={permissions.allowlist}
        onAllowedChange={placement.setAllowed}
      />
      {registering && register.allowed && (
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
