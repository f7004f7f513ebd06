import {
  CALLERS,
  matrixFigures,
  PERMISSION_MATRIX,
  SURFACE_BASES,
  type MatrixRow,
} from './matrix';

export const README_START = '<!-- permission-matrix:start -->';
export const README_END = '<!-- permission-matrix:end -->';

const HEADERS: Record<(typeof CALLERS)[number], string> = {
  anonymous: 'anonymous',
  user: 'user',
  orgAdmin: 'org admin',
  platformAdmin: 'platform admin',
  external: 'external token',
};

const cell = (text: string) => text.replace(/\|/g, '\\|');

/**
 * The README's permission section: the table of `matrix.ts` as markdown, between the markers.
 * `matrix.readme.test.ts` fails when the README's differs (UPDATE_PERMISSION_MATRIX=1 writes it).
 */
export function renderPermissionSection(
  rows: MatrixRow[] = PERMISSION_MATRIX,
): string {
  const figures = matrixFigures(rows);
  const head = `| surface | route | decided by | ${CALLERS.map(
    c => HEADERS[c],
  ).join(' | ')} |`;
  const rule = `| ${['---', '---', '---', ...CALLERS.map(() => '---')].join(
    ' | ',
  )} |`;
  const lines = rows.map(
    row =>
      `| ${cell(SURFACE_BASES[row.surface])} | ${cell(row.route)} | ${cell(
        row.rule,
      )} | ${CALLERS.map(c => row.expect[c]).join(' | ')} |`,
  );
  return [
    README_START,
    '',
    `${figures.routes} routes x ${figures.callers} callers = ${figures.cases} cases, each run on the real backend by`,
    '`packages/backend/src/permissions/matrix.integration.test.ts` (generated from `permissions/matrix.ts`;',
    '`UPDATE_PERMISSION_MATRIX=1` with `matrix.readme.test.ts` rewrites it).',
    '',
    head,
    rule,
    ...lines,
    '',
    README_END,
  ].join('\n');
}

/** The README with its permission section replaced by `section`; undefined without the markers. */
export function replaceSection(
  readme: string,
  section: string,
): string | undefined {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) return undefined;
  return (
    readme.slice(0, start) + section + readme.slice(end + README_END.length)
  );
}
