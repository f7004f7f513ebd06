import { createFrontendModule } from '@backstage/frontend-plugin-api';
import { AppRootWrapperBlueprint } from '@backstage/plugin-app-react';

/**
 * Backstage's theme lets every table cell break its text anywhere (`word-break: break-word`), so
 * at 1,280 px the catalog's Name column, squeezed by the Description, wraps entity names letter
 * by letter. An entity link in a table cell breaks only where a name may (after a hyphen or a
 * dot): the column is at least as wide as the longest part of a name.
 */
export const TABLE_CSS = `
.MuiTableCell-body a[href*="/catalog/"] {
  word-break: normal;
  overflow-wrap: normal;
}
`;

const TableStyles = ({ children }: { children: React.ReactNode }) => (
  <>
    <style data-testid="infrared-table-styles">{TABLE_CSS}</style>
    {children}
  </>
);

const tableStyles = AppRootWrapperBlueprint.make({
  name: 'table-styles',
  params: { component: TableStyles },
});

/** The app's table styles (the catalog's name column at laptop widths). */
export const tablesModule = createFrontendModule({
  pluginId: 'app',
  extensions: [tableStyles],
});
