/*
 * Browser tests against the portal exactly as `npm start` brings it up (local control plane,
 * local gitops repo, frontend :3000, backend :7007), in Debian's Chromium via playwright-core.
 *
 * Used by `npm test` (scripts/portal.js); returns { passed, failed }.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensureDebianPackage } = require('./debian-packages');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const BACKEND = 'http://localhost:7007';
const FRONTEND = 'http://localhost:3000';

async function waitFor(url, timeoutMs, accept = status => status < 500) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (accept(res.status)) return true;
    } catch {
      /* not up yet */
    }
    await new Promise(r => setTimeout(r, 1000));
  }
  return false;
}

function portsInUse() {
  const out = spawnSync('ss', ['-ltn'], { encoding: 'utf8' }).stdout || '';
  return [':3000 ', ':7007 '].filter(p => out.includes(p));
}

/** Runs e2e/run.js against a portal started with `npm start`; never leaves it running. */
async function runBrowserTests({ repoRoot, env, log }) {
  const runner = path.join(repoRoot, 'e2e', 'run.js');
  if (!fs.existsSync(runner)) return { passed: 0, failed: 0 };
  if (!ensureDebianPackage('chromium', log)) {
    log(
      `no Chromium at ${CHROMIUM}: install Debian's chromium (or set CHROMIUM_PATH)`,
    );
    return { passed: 0, failed: 1 };
  }
  if (portsInUse().length) {
    log(
      `ports ${portsInUse().join(
        ',',
      )} are taken: stop the running portal first`,
    );
    return { passed: 0, failed: 1 };
  }
  // Clusters built with OpenTofu need tofu for devenv's node agent (`devenv up` starts the agent
  // when tofu is built): build it first, once (about 9 minutes cold; cached in ~/.cache).
  const tofu = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'packages', 'devenv', 'bin', 'devenv.js'), 'tofu'],
    { cwd: repoRoot, env, stdio: 'inherit' },
  );
  if (tofu.status !== 0) {
    log('tofu could not be built: the OpenTofu steps will fail (see above)');
  }
  // npm start runs Argo CD (packages/devenv) unless INFRARED_ARGOCD=off: build it first, once (about
  // 19 minutes cold; cached), so the portal's start stays inside the wait below.
  if (env.INFRARED_ARGOCD !== 'off') {
    const argocd = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'packages', 'devenv', 'bin', 'devenv.js'), 'argocd'],
      { cwd: repoRoot, env, stdio: 'inherit' },
    );
    if (argocd.status !== 0) {
      log(
        'Argo CD could not be built: the portal starts without it (see above)',
      );
    }
  }
  const logFile = path.join(repoRoot, 'test-results', 'e2e', 'portal.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'w');
  const portal = spawn(
    process.execPath,
    [path.join(__dirname, 'portal.js'), 'start'],
    {
      cwd: repoRoot,
      env: { ...env, BROWSER: 'none' },
      stdio: ['ignore', out, out],
      detached: true,
    },
  );
  const stopPortal = () => {
    try {
      process.kill(-portal.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  process.on('exit', stopPortal);
  try {
    log(`starting the portal (log: ${path.relative(repoRoot, logFile)})`);
    const up =
      (await waitFor(
        `${BACKEND}/api/infrared/health`,
        600_000,
        s => s === 401 || s === 200,
      )) && (await waitFor(FRONTEND, 300_000, s => s === 200));
    if (!up) {
      log('the portal did not come up: see its log');
      return { passed: 0, failed: 1 };
    }
    const result = spawnSync(process.execPath, [runner], {
      cwd: repoRoot,
      env: {
        ...env,
        CHROMIUM_PATH: CHROMIUM,
        E2E_RESULT_FILE: path.join(
          repoRoot,
          'test-results',
          'e2e',
          'result.json',
        ),
      },
      stdio: 'inherit',
    });
    try {
      return JSON.parse(
        fs.readFileSync(
          path.join(repoRoot, 'test-results', 'e2e', 'result.json'),
          'utf8',
        ),
      );
    } catch {
      return { passed: 0, failed: result.status === 0 ? 0 : 1 };
    }
  } finally {
    stopPortal();
    await new Promise(r => setTimeout(r, 3000));
    try {
      process.kill(-portal.pid, 'SIGKILL');
    } catch {
      /* stopped */
    }
  }
}

module.exports = { runBrowserTests };
