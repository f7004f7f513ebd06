import {
  Content,
  ContentHeader,
  EmptyState,
  Header,
  Page,
} from '@backstage/core-components';

/** The Clusters page: every workload cluster the platform runs Argo CD deployments on. */
export const ClustersPage = () => (
  <Page themeId="tool">
    <Header
      title="Clusters"
      subtitle="Workload clusters that Argo CD on the management cluster deploys to"
    />
    <Content>
      <ContentHeader title="Clusters" />
      <EmptyState
        missing="data"
        title="No clusters to show yet"
        description="Registered and discovered clusters will be listed here."
      />
    </Content>
  </Page>
);
