#!/usr/bin/env node
/*
 * Builds the portal's frontend (packages/app, production mode) for the UI bench, with the bench's
 * config baked in, into bench/ui/.cache/app/dist. packages/app itself is not touched: its
 * package.json, src and public are copied next to this script and removed after the build.
 *   node bench/ui/build.js
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const repo = path.resolve(__dirname, '..', '..');
const app = path.join(repo, 'packages', 'app');
const out = path.join(__dirname, '.cache', 'app');

function build() {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  fs.copyFileSync(
    path.join(app, 'package.json'),
    path.join(out, 'package.json'),
  );
  fs.cpSync(path.join(app, 'public'), path.join(out, 'public'), {
    recursive: true,
  });
  fs.cpSync(path.join(app, 'src'), path.join(out, 'src'), {
    recursive: true,
    filter: src => !/\.test\.tsx?$|setupTests/.test(src),
  });
  const started = Date.now();
  const cli = path.join(repo, 'node_modules', '.bin', 'backstage-cli');
  const result = spawnSync(
    cli,
    [
      'package',
      'build',
      ...(process.env.BENCH_UI_STATS ? ['--stats'] : []),
      '--config',
      path.join(repo, 'app-config.yaml'),
      '--config',
      path.join(__dirname, 'app-config.yaml'),
    ],
    { cwd: out, stdio: 'inherit', env: process.env },
  );
  // Keep only dist: the copies would be checked twice by the repository's tsc and prettier.
  for (const copy of ['src', 'public', 'package.json']) {
    fs.rmSync(path.join(out, copy), { recursive: true, force: true });
  }
  if (result.status !== 0) throw new Error('the app build failed: see above');
  console.log(
    `built ${path.relative(repo, out)}/dist in ${(
      (Date.now() - started) /
      1000
    ).toFixed(1)} s`,
  );
}

if (require.main === module) build();
module.exports = { build, distDir: path.join(out, 'dist') };
