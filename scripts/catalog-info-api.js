#!/usr/bin/env node
/*
 * Writes the API entity of catalog-info.yaml from the backend plugin's OpenAPI description, inline:
 * the catalog reads catalog-info.yaml as a `file` location, and no URL reader reads files, so a
 * `$text` placeholder cannot point at the spec. Everything after MARKER is generated.
 *
 *   node scripts/catalog-info-api.js          # rewrite catalog-info.yaml
 *   node scripts/catalog-info-api.js --check  # exit 1 when it is out of date
 */
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const root = path.resolve(__dirname, '..');
const CATALOG_INFO = path.join(root, 'catalog-info.yaml');
const SPEC = 'plugins/infrared-backend/src/schema/openapi.yaml';
const MARKER =
  '# The API entity below is generated from ' +
  SPEC +
  ' by scripts/catalog-info-api.js: do not edit it.';

function apiEntity() {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'API',
    metadata: {
      name: 'infrared-api',
      title: 'Infrared clusters REST API',
      description:
        'Register, list and remove clusters, org allowlists and zone placement, under /api/infrared',
    },
    spec: {
      type: 'openapi',
      lifecycle: 'experimental',
      owner: 'group:default/platform-admins',
      definition: fs.readFileSync(path.join(root, SPEC), 'utf8'),
    },
  };
}

/** catalog-info.yaml as it should be: the hand-written part, the marker, the API entity. */
function expectedCatalogInfo() {
  const current = fs.readFileSync(CATALOG_INFO, 'utf8');
  const at = current.indexOf(MARKER);
  const head = (at < 0 ? current : current.slice(0, at)).replace(/\s*$/, '');
  return `${head}\n---\n${MARKER}\n${YAML.stringify(apiEntity(), {
    lineWidth: 0,
  })}`.replace(/\n---\n---\n/, '\n---\n');
}

if (require.main === module) {
  const expected = expectedCatalogInfo();
  const current = fs.readFileSync(CATALOG_INFO, 'utf8');
  if (process.argv.includes('--check')) {
    if (current !== expected) {
      console.error(
        'catalog-info.yaml is out of date: run node scripts/catalog-info-api.js',
      );
      process.exit(1);
    }
  } else if (current !== expected) {
    fs.writeFileSync(CATALOG_INFO, expected);
  }
}

/** The entities of catalog-info.yaml as it is. */
function catalogInfoEntities() {
  return YAML.parseAllDocuments(fs.readFileSync(CATALOG_INFO, 'utf8')).map(d =>
    d.toJSON(),
  );
}

module.exports = {
  expectedCatalogInfo,
  catalogInfoEntities,
  CATALOG_INFO,
  SPEC,
};
