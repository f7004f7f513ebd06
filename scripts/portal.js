#!/usr/bin/env node
/*
 * The two README commands:
 *   npm start  -> install if needed, bring up the local environment (control plane, gitops repo),
 *                 then the portal (frontend :3000, backend :7007)
 *   npm test   -> install if needed, type-check, lint, run every workspace's tests once (CI mode)
 *
 * Runs itself under Node 22 when the machine's Node is older (see node-runtime.js).
 */
const { spawnSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensureNode22, runtimeEnv, repoRoot } = require('./node-runtime');
const { runBrowserTests } = require('./e2e');
const { ensureDebianPackage } = require('./debian-packages');
const { runLeakScan } = require('./leak-scan');

ensureNode22();

const env = runtimeEnv();
const summaryFile = path.join(repoRoot, 'test-results', 'summary.json');

function run(command, args, options = {}) {
  console.log(`\n[${process.argv[2]}] ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...env, ...options.env },
  });
  if (result.error) throw result.error;
  return result.status === null ? 1 : result.status;
}

function bin(name) {
  return path.join(repoRoot, 'node_modules', '.bin', name);
}

function nativeAddonLoads() {
  const probe = spawnSync(
    process.execPath,
    ['-e', "new (require('better-sqlite3'))(':memory:').close()"],
    { cwd: path.join(repoRoot, 'packages', 'backend'), env },
  );
  return probe.status === 0;
}

function ensureInstalled() {
  const marker = path.join(repoRoot, 'node_modules', '.package-lock.json');
  const lock = path.join(repoRoot, 'package-lock.json');
  // INFRARED_INSTALLED: set by `test` and `e2e` for the portal they start: installed once, never
  // again under a running test.
  const stale =
    process.env.INFRARED_INSTALLED !== '1' &&
    (!fs.existsSync(marker) ||
      (fs.existsSync(lock) &&
        fs.statSync(lock).mtimeMs > fs.statSync(marker).mtimeMs));
  if (stale) {
    const args = fs.existsSync(lock) ? ['ci'] : ['install'];
    if (run('npm', [...args, '--no-audit', '--no-fund']) !== 0) {
      throw new Error('npm install failed: see the output above');
    }
  }
  if (!nativeAddonLoads()) {
    console.log('[runtime] rebuilding better-sqlite3 for this Node');
    if (run('npm', ['rebuild', 'better-sqlite3']) !== 0) {
      throw new Error('could not build better-sqlite3 for this Node');
    }
  }
}

/** Hooks that prepare the local environment before the portal starts. */
const localEnvironmentHooks = [];
function registerLocalEnvironmentHooks() {
  const hooksDir = path.join(__dirname, 'start.d');
  if (!fs.existsSync(hooksDir)) return;
  for (const file of fs.readdirSync(hooksDir).sort()) {
    if (file.endsWith('.js'))
      localEnvironmentHooks.push(require(path.join(hooksDir, file)));
  }
}

/**
 * `--config` for the hooks' files, after the files the portal loads anyway: the caller's own
 * `--config` ones, else app-config.yaml and app-config.local.yaml (what `repo start` loads without
 * `--config`).
 */
function configArgs(files, args) {
  if (!files.length) return [];
  const own = args.includes('--config')
    ? []
    : ['app-config.yaml', 'app-config.local.yaml']
        .map(f => path.join(repoRoot, f))
        .filter(f => fs.existsSync(f));
  return [...own, ...files].flatMap(f => ['--config', f]);
}

async function start() {
  ensureInstalled();
  registerLocalEnvironmentHooks();
  const extraEnv = {};
  const configFiles = [];
  for (const hook of localEnvironmentHooks) {
    // a hook returns env vars, and config files for the portal under `configFiles`
    const { configFiles: files = [], ...vars } =
      (await hook({ repoRoot, env, run })) ?? {};
    Object.assign(extraEnv, vars);
    configFiles.push(...files);
  }
  const child = spawn(
    bin('backstage-cli'),
    [
      'repo',
      'start',
      ...process.argv.slice(3),
      ...configArgs(configFiles, process.argv.slice(3)),
    ],
    {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...env, ...extraEnv },
    },
  );
  const forward = signal => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', code => process.exit(code === null ? 1 : code));
}

/**
 * One real control plane (packages/devenv) shared by every integration test of the run.
 * Its processes watch this runner's PID, so they stop even if the runner is killed.
 */
function startTestControlPlane() {
  const devenv = path.join(repoRoot, 'packages', 'devenv', 'bin', 'devenv.js');
  const state = path.join(repoRoot, 'test-results', 'devenv', 'state.json');
  fs.mkdirSync(path.dirname(state), { recursive: true });
  const up = run(process.execPath, [
    devenv,
    'up',
    '--state',
    state,
    '--owner-pid',
    String(process.pid),
  ]);
  if (up !== 0) {
    // Integration tests then fail with the reason; unit tests still run and count.
    console.error('[test] the local control plane did not start: see above');
    return { env: {}, stop() {} };
  }
  return {
    env: { INFRARED_DEVENV_STATE: state },
    state,
    stop() {
      run(process.execPath, [devenv, 'down', '--state', state]);
    },
  };
}

/** The browser tests against a portal started like `npm start`, then the demo environment stopped. */
async function runBrowserTestsOnce() {
  if (process.env.INFRARED_SKIP_E2E === '1') {
    console.log('[test] INFRARED_SKIP_E2E=1: browser tests skipped');
    return { passed: 0, failed: 0 };
  }
  const devenv = path.join(repoRoot, 'packages', 'devenv', 'bin', 'devenv.js');
  const demoWasUp =
    spawnSync(process.execPath, [devenv, 'status'], { cwd: repoRoot, env })
      .status === 0;
  const log = message => console.log(`[e2e] ${message}`);
  try {
    const result = await runBrowserTests({ repoRoot, env, log });
    // before the demo environment goes: its events and stored Secrets are part of the scan
    result.leakScan = await runLeakScan({
      stateFile: path.join(repoRoot, '.data', 'devenv', 'state.json'),
      texts: [path.join(repoRoot, 'test-results', 'e2e')],
      gitRepos: [path.join(repoRoot, '.data', 'gitops.git')],
      secretFiles: [path.join(repoRoot, '.data', 'infrared.token')],
    });
    return result;
  } finally {
    if (!demoWasUp) run(process.execPath, [devenv, 'down']);
  }
}

function readJestCounts(file) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    return {
      passed: report.numPassedTests,
      // a suite that fails to load counts as a failure even if it declared no test
      failed: report.numFailedTests + report.numRuntimeErrorTestSuites,
    };
  } catch {
    return { passed: 0, failed: 1 };
  }
}

/** One `devenv <tool>` build, its output to test-results/<tool>-build.log; resolves to its exit code. */
function buildTool(tool) {
  const log = path.join(repoRoot, 'test-results', `${tool}-build.log`);
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const out = fs.openSync(log, 'w');
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'packages', 'devenv', 'bin', 'devenv.js'), tool],
    { cwd: repoRoot, env, stdio: ['ignore', out, out] },
  );
  return new Promise(resolve => {
    child.on('exit', code => {
      fs.closeSync(out);
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(
        `[test] devenv ${tool}: exit ${code} after ${seconds} s (${path.relative(
          repoRoot,
          log,
        )})`,
      );
      resolve(code);
    });
  });
}

/**
 * `devenv argocd`, then `devenv tofu` and `devenv helm`, in the background while tsc and lint keep
 * one core busy: a cold machine builds them from Go modules (Argo CD about 19 minutes, tofu and
 * helm a few each), a warm one finds them in ~/.cache at once. Built before jest, so no test waits
 * out its bound on a build (a cold run's provisioning demo test did, waiting for tofu). The tests
 * wait on devenv's lock if one is not done.
 */
async function buildGoToolsInBackground() {
  for (const tool of ['argocd', 'tofu', 'helm']) await buildTool(tool);
}

async function test() {
  ensureInstalled();
  env.INFRARED_INSTALLED = '1';
  fs.mkdirSync(path.dirname(summaryFile), { recursive: true });
  fs.rmSync(summaryFile, { force: true });
  const steps = [];
  const step = (name, status) => {
    steps.push({ name, ok: status === 0 });
    return status;
  };

  const goToolsBuild = buildGoToolsInBackground();
  step('tsc', run(bin('tsc'), []));
  step('lint', run(bin('backstage-cli'), ['repo', 'lint']));
  // The publishable packages (scripts/publishable.js): their package.json fields, then their API
  // reports (report*.api.md) against the types tsc just wrote.
  const publishable = path.join(repoRoot, 'scripts', 'publishable.js');
  step('packages', run(process.execPath, [publishable, 'check']));
  step(
    'api-reports',
    run(process.execPath, [publishable, 'api-reports', '--ci']),
  );

  // The kube binaries (devenv up below) and the tools are all Go builds: one at a time from here.
  await goToolsBuild;
  const jestReport = path.join(repoRoot, 'test-results', 'jest.json');
  fs.rmSync(jestReport, { force: true });
  // The backend's PostgreSQL tests start their own server from these binaries.
  ensureDebianPackage('postgresql', message =>
    console.log(`[test] ${message}`),
  );
  const jestLog = path.join(repoRoot, 'test-results', 'jest.log');
  const controlPlane = startTestControlPlane();
  try {
    step(
      'jest',
      run(
        'bash',
        [
          '-c',
          // the output to the terminal and to jest.log, for the leak scan
          'set -o pipefail; "$0" "$@" 2>&1 | tee "$JEST_LOG"',
          bin('backstage-cli'),
          'repo',
          'test',
          '--json',
          `--outputFile=${jestReport}`,
          ...process.argv.slice(3),
        ],
        { env: { CI: 'true', JEST_LOG: jestLog, ...controlPlane.env } },
      ),
    );
    step(
      'leak-scan',
      await runLeakScan({
        stateFile: controlPlane.state,
        texts: [jestLog, jestReport],
      }),
    );
    // Backstage's backend bundle as production runs it: `npm run build:backend`, then the bundle
    // started with app-config.production.yaml and a PostgreSQL from devenv answers its health check.
    step(
      'backend bundle',
      run(
        process.execPath,
        [path.join(repoRoot, 'bench', 'backend-bundle', 'run.js')],
        { env: controlPlane.env },
      ),
    );
  } finally {
    controlPlane.stop();
  }
  const browser = await runBrowserTestsOnce();
  steps.push({ name: 'e2e', ok: browser.failed === 0 });
  if (browser.leakScan !== undefined) {
    steps.push({ name: 'leak-scan e2e', ok: browser.leakScan === 0 });
  }
  const jest = readJestCounts(jestReport);
  const counted = ['jest', 'e2e'];
  const checks = steps.filter(s => !counted.includes(s.name));
  const summary = {
    passed: jest.passed + browser.passed + checks.filter(s => s.ok).length,
    failed: jest.failed + browser.failed + checks.filter(s => !s.ok).length,
    steps,
  };
  fs.writeFileSync(summaryFile, JSON.stringify(summary, null, 2));
  console.log(
    `\n[test] ${steps
      .map(s => `${s.name}: ${s.ok ? 'ok' : 'FAILED'}`)
      .join(', ')}`,
  );
  process.exit(steps.every(s => s.ok) ? 0 : 1);
}

/** `node scripts/portal.js e2e [name ...]`: only the browser tests, or only the named e2e/<name>.e2e.js. */
async function e2e() {
  const only = process.argv.slice(3);
  if (only.length) env.E2E_ONLY = only.join(',');
  // a developer's quick run: never reinstall node_modules under the other work in this tree
  env.INFRARED_INSTALLED = '1';
  const result = await runBrowserTestsOnce();
  process.exit(result.failed ? 1 : 0);
}

const commands = { start, test, e2e };
const command = commands[process.argv[2]];
if (!command) {
  console.error(
    `usage: node scripts/portal.js <${Object.keys(commands).join('|')}>`,
  );
  process.exit(2);
}
command().catch(error => {
  console.error(`[${process.argv[2]}] ${error.message}`);
  process.exit(1);
});
