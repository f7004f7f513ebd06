import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

// The tool that writes the API entity, run here in check mode (a plain Node script).
const { expectedCatalogInfo, catalogInfoEntities, CATALOG_INFO, SPEC, MARKER } =
  require(path.join(root, 'scripts', 'catalog-info-api.js')) as {
    expectedCatalogInfo: (current?: string) => string;
    MARKER: string;
    catalogInfoEntities: () => any[];
    CATALOG_INFO: string;
    SPEC: string;
  };

describe("this repository's catalog-info.yaml", () => {
  it('holds the backend plugin’s OpenAPI description as it is now (else: node scripts/catalog-info-api.js)', () => {
    expect(fs.readFileSync(CATALOG_INFO, 'utf8')).toBe(expectedCatalogInfo());
    const api = catalogInfoEntities().find(e => e.kind === 'API');
    expect(api).toMatchObject({
      metadata: { name: 'infrared-api' },
      spec: { type: 'openapi' },
    });
    expect(api.spec.definition).toBe(
      fs.readFileSync(path.join(root, SPEC), 'utf8'),
    );
  });

  it('the plugin’s Component provides that API', () => {
    const component = catalogInfoEntities().find(
      e => e.kind === 'Component' && e.metadata.name === 'infrared-clusters',
    );
    expect(component.spec.providesApis).toEqual(['infrared-api']);
  });

  it('the script rewrites only the API document: documents before and after it stay', () => {
    const before = 'kind: Component\nmetadata:\n  name: a\n';
    const after = '# a comment\nkind: Component\nmetadata:\n  name: b\n';
    const stale = `${before}---\n${MARKER}\nkind: API\nspec:\n  definition: |\n    old\n---\n${after}`;
    const written = expectedCatalogInfo(stale);
    expect(written.startsWith(`${before}---\n${MARKER}\n`)).toBe(true);
    expect(written.endsWith(`\n---\n${after}`)).toBe(true);
    expect(written).not.toContain('    old\n');
    expect(written).toContain('openapi: 3.0.3');
    // without the API document yet, it is appended
    expect(expectedCatalogInfo(before)).toMatch(
      new RegExp(`^${before}---\n# The API entity`),
    );
  });
});
