import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

// The tool that writes the API entity, run here in check mode (a plain Node script).
const { expectedCatalogInfo, catalogInfoEntities, CATALOG_INFO, SPEC } =
  require(path.join(root, 'scripts', 'catalog-info-api.js')) as {
    expectedCatalogInfo: () => string;
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
});
