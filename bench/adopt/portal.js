/*
 * The guide's `start` block run as the adopter runs it, then the checks: the backend answers, a
 * cluster registered through the API turns Registered, and the Clusters page shows its row in
 * Debian's Chromium (playwright-core, the flags of e2e/chromium.js). Loopback only.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { CHROMIUM_FLAGS } = require('../../e2e/chromium');

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

/** Starts the block in its own process group; stop() ends that group. */
function startBlock(step, { appDir, env, logFile }) {
  const out = fs.openSync(logFile, 'w');
  const child = spawn('bash', ['-eo', 'pipefail', '-c', step.body], {
    cwd: appDir,
    env,
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  return {
    child,
    logFile,
    stop() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

async function guestToken(base) {
  const refresh = await fetch(`${base}/api/auth/guest/refresh`, {
    method: 'POST',
    signal: AbortSignal.timeout(5000),
  });
  if (!refresh.ok) throw new Error(`guest refresh ${refresh.status}`);
  return (await refresh.json()).backstageIdentity.token;
}

/** Until /api/infrared/health answers 200 with the guest's token (1 s apart, at most `seconds`). */
async function waitForBackend(base, started, seconds = 900) {
  for (let i = 0; i < seconds; i++) {
    if (started.child.exitCode !== null) throw new Error('`yarn start` exited');
    try {
      const token = await guestToken(base);
      const health = await fetch(`${base}/api/infrared/health`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(5000),
      });
      if (health.status === 200) return token;
    } catch {
      // not listening yet
    }
    await sleep(1000);
  }
  throw new Error(`no /api/infrared/health answer after ${seconds} s`);
}

/** Until the app's dev server serves its page (1 s apart). */
async function waitForApp(url, started, seconds = 900) {
  for (let i = 0; i < seconds; i++) {
    if (started.child.exitCode !== null) throw new Error('`yarn start` exited');
    try {
      const page = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (page.ok && (await page.text()).includes('<div id="root">')) return;
    } catch {
      // still compiling
    }
    await sleep(1000);
  }
  throw new Error(`the app at ${url} did not answer in ${seconds} s`);
}

/** POST /v1/clusters with the kubeconfig, then GET until Registered is True (at most `seconds`). */
async function registerCluster(
  base,
  token,
  { name, kubeconfig },
  seconds = 300,
) {
  const headers = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  };
  const post = await fetch(`${base}/api/infrared/v1/clusters`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name,
      kubeconfig,
      flavor: 'k3s',
      provider: 'local',
      region: 'local',
    }),
  });
  if (post.status !== 201) {
    throw new Error(`POST /v1/clusters: ${post.status} ${await post.text()}`);
  }
  let conditions = [];
  for (let i = 0; i < seconds * 2; i++) {
    const get = await fetch(`${base}/api/infrared/v1/clusters/${name}`, {
      headers,
    });
    conditions = (await get.json()).conditions ?? [];
    const registered = conditions.find(c => c.type === 'Registered');
    if (registered?.status === 'True') return registered;
    await sleep(500);
  }
  throw new Error(
    `${name} not Registered after ${seconds} s: ${JSON.stringify(conditions)}`,
  );
}

const isLoopbackUrl = url => {
  const { protocol, hostname } = new URL(url);
  if (!/^https?:$|^wss?:$/.test(protocol)) return true;
  return ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
};

/** Opens <app>/clusters in Chromium, signs in as the guest if asked, waits for the cluster's row. */
async function seeClusterRow(appUrl, name, screenshot) {
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
  const refused = new Set();
  try {
    const page = await browser.newPage({
      viewport: { width: 1600, height: 900 },
    });
    await page.route('**/*', route => {
      if (isLoopbackUrl(route.request().url())) return route.continue();
      refused.add(new URL(route.request().url()).host);
      return route.abort();
    });
    page.setDefaultTimeout(120_000);
    await page.goto(`${appUrl}/clusters`);
    const row = page.getByRole('row').filter({ hasText: name });
    const enter = page.getByRole('button', { name: /^enter$/i });
    await Promise.race([row.first().waitFor(), enter.waitFor()]);
    if (await enter.isVisible().catch(() => false)) {
      await enter.click();
      await row.first().waitFor();
    }
    const text = (await row.first().innerText()).replace(/\s+/g, ' ');
    await page.screenshot({ path: screenshot, type: 'png' });
    return { text, refused: [...refused] };
  } finally {
    await browser.close();
  }
}

module.exports = {
  startBlock,
  waitForBackend,
  waitForApp,
  registerCluster,
  seeClusterRow,
};
