#!/usr/bin/env node
/*
 * npm run build:backend -> Backstage's backend bundle: packages/backend/dist/bundle.tar.gz (the
 * backend and its workspace packages, built) and skeleton.tar.gz (their package.json files).
 *
 * `backstage-cli package build` of a backend builds its workspace dependencies through yarn, and
 * copies yarn.lock into the bundle; this repository uses npm. So the dependencies are built here
 * first (the packages, then the app's frontend bundle the backend serves), the backend with
 * --skip-build-dependencies, and an empty yarn.lock stands in while it runs (removed after; the
 * bundle's dependencies install from the skeleton with npm).
 * --quiet keeps the steps' output (hundreds of chunk sizes) in test-results/build-backend.log.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensureNode22, runtimeEnv, repoRoot } = require('./node-runtime');

ensureNode22();
const env = runtimeEnv();
const cli = path.join(repoRoot, 'node_modules', '.bin', 'backstage-cli');
// --quiet: each step's output goes to test-results/build-backend.log (its tail is shown on failure)
const quietLog = process.argv.includes('--quiet')
  ? path.join(repoRoot, 'test-results', 'build-backend.log')
  : undefined;
if (quietLog) {
  fs.mkdirSync(path.dirname(quietLog), { recursive: true });
  fs.writeFileSync(quietLog, '');
}

function step(name, command, args, cwd = repoRoot) {
  const started = Date.now();
  console.log(
    `[build:backend] ${name}: ${path.basename(command)} ${args.join(' ')}`,
  );
  const res = spawnSync(command, args, {
    cwd,
    env,
    stdio: quietLog ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    maxBuffer: 256 * 2 ** 20,
  });
  if (quietLog) {
    const output = `${res.stdout ?? ''}${res.stderr ?? ''}`;
    fs.appendFileSync(quietLog, `\n[${name}]\n${output}`);
    if (res.status !== 0) {
      console.log(output.split('\n').slice(-60).join('\n'));
    }
  }
  if (res.status !== 0) {
    throw new Error(
      `${name} failed (exit ${res.status}): see the output above${
        quietLog ? ` (all of it in ${path.relative(repoRoot, quietLog)})` : ''
      }`,
    );
  }
  console.log(
    `[build:backend] ${name} done in ${((Date.now() - started) / 1000).toFixed(
      0,
    )} s`,
  );
}

function main() {
  const started = Date.now();
  // declarations first: the publishable packages' build bundles them from dist-types
  step('tsc', path.join(repoRoot, 'node_modules', '.bin', 'tsc'), []);
  step('packages', cli, ['repo', 'build']);
  step(
    'app',
    cli,
    ['package', 'build'],
    path.join(repoRoot, 'packages', 'app'),
  );
  const yarnLock = path.join(repoRoot, 'yarn.lock');
  const placeholder = !fs.existsSync(yarnLock);
  if (placeholder) fs.writeFileSync(yarnLock, '');
  try {
    step(
      'backend',
      cli,
      ['package', 'build', '--skip-build-dependencies'],
      path.join(repoRoot, 'packages', 'backend'),
    );
  } finally {
    if (placeholder) fs.rmSync(yarnLock, { force: true });
  }
  const bundle = path.join(
    repoRoot,
    'packages',
    'backend',
    'dist',
    'bundle.tar.gz',
  );
  console.log(
    `[build:backend] ${path.relative(repoRoot, bundle)} (${(
      fs.statSync(bundle).size /
      2 ** 20
    ).toFixed(1)} MiB) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

try {
  main();
} catch (error) {
  console.error(`[build:backend] ${error.message}`);
  process.exit(1);
}
