#!/usr/bin/env node
/*
 * Writes the API entity of catalog-info.yaml from the backend plugin's OpenAPI description, inline:
 * the catalog reads catalog-info.yaml as a `file` location, and no URL reader reads files, so a
 * `$text` placeholder cannot point at the spec. The document after MARKER is generated; the others
 * are left as they are.
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

/**
 * catalog-info.yaml as it should be: every hand-written document as it is, and the API entity (the
 * document after MARKER, up to the next `---`) written anew; appended when there is none yet.
 */
function expectedCatalogInfo(current = fs.readFileSync(CATALOG_INFO, 'utf8')) {
  const api = `${MARKER}\n${YAML.stringify(apiEntity(), { lineWidth: 0 })}`;
  const at = current.indexOf(MARKER);
  if (at < 0) return `${current.replace(/\s*$/, '')}\n---\n${api}`;
  // the definition is a block scalar, indented: a line `---` can only be the next document
  const end = current.indexOf('\n---\n', at);
  return `${current.slice(0, at)}${api}${
    end < 0 ? '' : current.slice(end + 1)
  }`;
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
  MARKER,
  expectedCatalogInfo,
  catalogInfoEntities,
  CATALOG_INFO,
  SPEC,
};
