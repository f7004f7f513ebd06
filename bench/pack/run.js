#!/usr/bin/env node
/*
 * bench/pack: the publishable packages as npm would install them.
 *   node bench/pack/run.js [--state /tmp/devenv-shared/state.json] [--app-build] [--keep]
 * 1. backstage-cli package build and a packed tarball of every non-private package under plugins/
 *    (scripts/publishable.js), their sizes;
 * 2. a scratch app from packages/app and packages/backend (HEAD) depending on the tarballs instead of
 *    the workspace, npm install (local cache first, the registry for what it lacks), its time;
 * 3. the scratch backend started on a loopback port against the management cluster of --state (or
 *    INFRARED_DEVENV_STATE), the time until GET /api/infrared/health answers 200 with the guest's
 *    token; and the registrar's bin from the installed package: --version and --help;
 * 4. with --app-build, backstage-cli package build of the scratch app (minutes on 2 cores).
 * --skip <dir,...> leaves packages out (e.g. one still being written); the scratch app then drops them.
 * After the build each package must pass its prepack's check (scripts/prepack-check.js), and after
 * the install the @backstage packages nested below another package (a second copy) are counted.
 * Everything runs under a temporary folder, removed at the end (--keep leaves it); the backend's
 * process group is stopped whatever happens. Loopback only.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { publishablePackages } = require('../../scripts/publishable');
const { packAll, must } = require('./pack');
const scratch = require('./scratch');

const arg = name => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

function managementKubeconfig() {
  const stateFile = arg('--state') ?? process.env.INFRARED_DEVENV_STATE;
  if (!stateFile)
    throw new Error(
      'give --state <devenv state.json> (or INFRARED_DEVENV_STATE)',
    );
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  const cluster = state.clusters.find(c => c.name === 'management');
  if (!cluster) throw new Error(`${stateFile} has no cluster named management`);
  return cluster.kubeconfigPath;
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

const STARTUP_FAILURES = [
  'Backend startup failed',
  'triggerUncaughtException',
  'ERR_MODULE_NOT_FOUND',
];

/** Polls (at most `attempts` times, 1 s apart) until the backend answers health with a token. */
async function waitForHealth(port, backend, attempts = 300) {
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < attempts; i++) {
    if (backend.child.exitCode !== null) throw new Error('the backend exited');
    // backstage-cli package start outlives a backend that crashed: its log says so
    const log = fs.readFileSync(backend.logFile, 'utf8');
    const failure = STARTUP_FAILURES.find(marker => log.includes(marker));
    if (failure) throw new Error(`the backend failed to start (${failure})`);
    try {
      const refresh = await fetch(`${base}/api/auth/guest/refresh`, {
        method: 'POST',
        signal: AbortSignal.timeout(5000),
      });
      if (refresh.ok) {
        const token = (await refresh.json()).backstageIdentity.token;
        const health = await fetch(`${base}/api/infrared/health`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(5000),
        });
        if (health.status === 200) return health.json();
      }
    } catch {
      // not listening yet
    }
    await sleep(1000);
  }
  throw new Error(`no health answer after ${attempts} attempts`);
}

/** node_modules/<a>/node_modules/@backstage/<b>: a second copy of an @backstage package, by name. */
function nestedBackstageCopies(appDir) {
  const found = [];
  const walk = (modules, depth) => {
    if (depth > 6 || !fs.existsSync(modules)) return;
    for (const entry of fs.readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const names = entry.startsWith('@')
        ? fs.readdirSync(path.join(modules, entry)).map(n => `${entry}/${n}`)
        : [entry];
      for (const name of names) {
        if (depth > 0 && name.startsWith('@backstage/')) {
          found.push(path.relative(appDir, path.join(modules, name)));
        }
        walk(path.join(modules, name, 'node_modules'), depth + 1);
      }
    }
  };
  walk(path.join(appDir, 'node_modules'), 0);
  for (const workspace of ['app', 'backend']) {
    walk(path.join(appDir, 'packages', workspace, 'node_modules'), 1);
  }
  return found;
}

function registrarBin(appDir) {
  const bin = path.join(appDir, 'node_modules', '.bin', 'infrared-registrar');
  const version = must(process.execPath, [bin, '--version'], { cwd: appDir });
  const help = must(process.execPath, [bin, '--help'], { cwd: appDir });
  return { version: version.trim(), helpFirstLine: help.split('\n')[0] };
}

function printPacked(packed) {
  for (const p of packed) {
    console.log(
      `${p.name}@${p.version}: tarball ${(p.size / 1024).toFixed(
        1,
      )} kB, unpacked ${(p.unpackedSize / 1024).toFixed(1)} kB, ${
        p.files
      } files (build ${p.buildSeconds.toFixed(1)} s)`,
    );
  }
}

async function startAndCheck(appDir, kubeconfigPath) {
  const port = await scratch.freePort();
  const config = scratch.writeBenchConfig(appDir, { port, kubeconfigPath });
  const log = path.join(appDir, 'backend.log');
  const started = Date.now();
  const backend = scratch.startBackend(appDir, config, log);
  try {
    const health = await waitForHealth(port, backend);
    console.log(
      `backend: /api/infrared/health 200 after ${(
        (Date.now() - started) /
        1000
      ).toFixed(1)} s: ${JSON.stringify(health)}`,
    );
  } catch (e) {
    console.error(
      fs.readFileSync(log, 'utf8').split('\n').slice(-40).join('\n'),
    );
    throw e;
  } finally {
    backend.stop();
  }
}

/** --app-build: backstage-cli package build of the scratch app (the frontend plugin from its tarball). */
function buildApp(appDir) {
  const started = Date.now();
  must(
    path.join(appDir, 'node_modules', '.bin', 'backstage-cli'),
    ['package', 'build', '--config', path.join(appDir, 'app-config.yaml')],
    { cwd: path.join(appDir, 'packages', 'app') },
  );
  console.log(`app build: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function main() {
  const kubeconfigPath = managementKubeconfig();
  const skipped = (arg('--skip') ?? '').split(',').filter(Boolean);
  const started = Date.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-pack-'));
  try {
    const dirs = publishablePackages().filter(dir => !skipped.includes(dir));
    const packed = packAll(dirs, work);
    printPacked(packed);
    const appDir = path.join(work, 'app');
    scratch.copyApp(appDir);
    const dropped = scratch.writeRoot(appDir, packed);
    if (dropped.length) {
      console.log(
        `left out of the scratch app (private, not packed): ${dropped.join(
          ', ',
        )}`,
      );
    }
    const seconds = scratch.install(appDir);
    console.log(`npm install of the scratch app: ${seconds.toFixed(1)} s`);
    const nested = nestedBackstageCopies(appDir);
    console.log(
      `nested @backstage copies: ${nested.length}${
        nested.length ? ` (${nested.join(', ')})` : ''
      }`,
    );
    const bin = registrarBin(appDir);
    console.log(
      `infrared-registrar from the tarball: ${bin.version}; --help: ${bin.helpFirstLine}`,
    );
    await startAndCheck(appDir, kubeconfigPath);
    if (process.argv.includes('--app-build')) buildApp(appDir);
    console.log(
      `the whole run: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    if (process.argv.includes('--keep')) console.log(`kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch(error => {
  console.error(`bench/pack: ${error.message}`);
  process.exit(1);
});
