#!/usr/bin/env node
/*
 * Builds the registrar CLI (src/command.ts) into one CommonJS file that plain node runs:
 * dist/registrar/infrared-registrar.cjs, with @kubernetes/client-node and the workspace packages
 * bundled in (loading client-node's hundreds of ES modules is most of a start otherwise).
 *   node bin/build-registrar.js            # or: npm run build:registrar -w @infrared-clusters/infrared-registrar
 * bin/infrared-registrar.js calls it by itself when the output is missing or older than the sources.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const OUTFILE = path.join(ROOT, 'dist', 'registrar', 'infrared-registrar.cjs');
const ENTRY = path.join(ROOT, 'src', 'command.ts');
/** What the bundle is made of, for the staleness check (workspace sources and this package's manifest). */
const SOURCES = [
  path.join(ROOT, 'src'),
  path.join(ROOT, '..', 'infrared-kube', 'src'),
  path.join(ROOT, '..', 'infrared-common', 'src'),
  path.join(ROOT, 'package.json'),
  __filename,
];

function newestMtime(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

/** True when there are sources here (a repository checkout) and `output` is missing or older. */
function isStale(output = OUTFILE) {
  if (!fs.existsSync(ENTRY)) return false;
  let built;
  try {
    built = fs.statSync(output).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some(s => newestMtime(s) > built);
}

/** Bundles with esbuild (through the repository's node_modules); writes atomically. */
function build() {
  const esbuild = require(require.resolve('esbuild', {
    paths: [ROOT, process.cwd()],
  }));
  fs.mkdirSync(path.dirname(OUTFILE), { recursive: true });
  const tmp = `${OUTFILE}.${process.pid}.tmp`;
  // Old tr46 (under node-fetch) requires node's deprecated punycode, which warns on stderr once it
  // is loaded from outside node_modules: bundle the npm package of the same API instead.
  const punycode = require.resolve('punycode/', { paths: [ROOT] });
  esbuild.buildSync({
    entryPoints: [ENTRY],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // ws's optional native helpers: it falls back to JavaScript without them.
    external: ['bufferutil', 'utf-8-validate'],
    alias: { punycode },
    logLevel: 'error',
    legalComments: 'none',
  });
  fs.renameSync(tmp, OUTFILE);
  return OUTFILE;
}

module.exports = { OUTFILE, build, isStale };

if (require.main === module) {
  const started = Date.now();
  build();
  process.stdout.write(
    `built ${path.relative(process.cwd(), OUTFILE)} in ${
      Date.now() - started
    } ms\n`,
  );
}
