#!/usr/bin/env node
/*
 * infrared-registrar: runs the registrar CLI from built output with plain node, the first of:
 *  1. dist/registrar/infrared-registrar.cjs, the one-file esbuild bundle (build-registrar.js; what a
 *     container image copies with bin/ and package.json alone), when present and current;
 *  2. dist/cli.cjs.js, what `backstage-cli package build` makes of src/cli.ts: the published package
 *     runs this one, with its dependencies from node_modules;
 *  3. in a checkout: the bundle (re)built with esbuild, or else the TypeScript sources through
 *     Backstage's node transform.
 *   infrared-registrar --once --dry-run --debug
 */
const fs = require('node:fs');
const path = require('node:path');
const { OUTFILE, build, isStale } = require('./build-registrar');

const PACKAGE_ROOT = path.join(__dirname, '..');
const PACKAGE_BUILD = path.join(PACKAGE_ROOT, 'dist', 'cli.cjs.js');
const SCOPE = '@infrared-clusters/';

/**
 * In a checkout, the sibling workspace packages' main is their src/index.ts, which plain node cannot
 * load: resolve them to their own dist/ as the published packages have it, when it is built.
 */
function resolveSiblingsToDist() {
  const Module = require('node:module');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function resolveToDist(request, parent, ...rest) {
    if (request.startsWith(SCOPE)) {
      const [scope, name, ...sub] = request.split('/');
      const manifest = resolve.call(
        this,
        `${scope}/${name}/package.json`,
        parent,
        ...rest,
      );
      const target = path.join(
        path.dirname(manifest),
        'dist',
        `${sub.length ? sub.join('/') : 'index'}.cjs.js`,
      );
      if (fs.existsSync(target)) return target;
    }
    return resolve.call(this, request, parent, ...rest);
  };
}

function fromPackageBuild() {
  if (fs.existsSync(path.join(PACKAGE_ROOT, 'src'))) resolveSiblingsToDist();
  const { runRegistrarCli } = require(PACKAGE_BUILD);
  return { run: runRegistrarCli };
}

function fromSources(reason) {
  process.stderr.write(
    `infrared-registrar: running from the TypeScript sources (${reason})\n`,
  );
  // Fails with "Cannot find module '@backstage/cli/...'" until `npm install` has run at the repo root.
  require(require.resolve('@backstage/cli/config/nodeTransform.cjs', {
    paths: [__dirname, process.cwd()],
  }));
  return require(path.join(__dirname, '..', 'src', 'command.ts'));
}

function load() {
  if (fs.existsSync(OUTFILE) && !isStale(OUTFILE)) return require(OUTFILE);
  if (fs.existsSync(PACKAGE_BUILD) && !isStale(PACKAGE_BUILD)) {
    try {
      return fromPackageBuild();
    } catch (e) {
      // a checkout whose sibling packages are not built: go on to the bundle
      if (!fs.existsSync(path.join(PACKAGE_ROOT, 'src'))) throw e;
    }
  }
  try {
    build();
    return require(OUTFILE);
  } catch (e) {
    return fromSources(`the built output is unavailable: ${e.message}`);
  }
}

load().run(process.argv.slice(2));
