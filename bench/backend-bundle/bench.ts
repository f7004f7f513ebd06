/*
 * bench/backend-bundle: Backstage's backend bundle, built and started as production runs it.
 *   1. `npm run build:backend` (scripts/build-backend.js; --no-build takes the bundle already built);
 *   2. the bundle unpacked into a new folder, its third-party dependencies linked from this
 *      checkout's node_modules (what `npm install` from skeleton.tar.gz would give, without the
 *      registry), its workspace packages from the bundle itself;
 *   3. `node packages/backend --config app-config.yaml --config app-config.production.yaml` with a
 *      PostgreSQL from devenv, the management cluster of a devenv control plane (--state, else
 *      INFRARED_DEVENV_STATE, else an ephemeral one) and the backend on 127.0.0.1 on a free port;
 *   4. GET /api/infrared/health with the static token (200, status ok and an installation state) and without (401).
 * Prints the build, unpack and start-to-healthy times; fails when the bundle does not serve.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  openControlPlane,
  startControlPlane,
  startPostgres,
  type LocalPostgres,
} from '@internal/devenv';

const ROOT = path.resolve(__dirname, '../..');
const BUNDLE = path.join(ROOT, 'packages/backend/dist/bundle.tar.gz');
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** node_modules of the unpacked bundle: its workspace packages, and the checkout's installed ones. */
function linkNodeModules(dir: string) {
  const workspace = new Map<string, string>();
  for (const group of ['packages', 'plugins']) {
    for (const name of fs.readdirSync(path.join(dir, group))) {
      const pkg = path.join(dir, group, name, 'package.json');
      if (fs.existsSync(pkg))
        workspace.set(
          JSON.parse(fs.readFileSync(pkg, 'utf8')).name,
          path.dirname(pkg),
        );
    }
  }
  const target = path.join(dir, 'node_modules');
  const installed = path.join(ROOT, 'node_modules');
  const link = (name: string) => {
    const from = path.join(target, name);
    fs.mkdirSync(path.dirname(from), { recursive: true });
    fs.symlinkSync(workspace.get(name) ?? path.join(installed, name), from);
  };
  for (const entry of fs.readdirSync(installed)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const scoped of fs.readdirSync(path.join(installed, entry)))
        link(`${entry}/${scoped}`);
    } else link(entry);
  }
  for (const name of workspace.keys())
    if (!fs.existsSync(path.join(target, name))) link(name);
  return [...workspace.keys()];
}

/** The management cluster's admin kubeconfig file: --state's, INFRARED_DEVENV_STATE's, or a new control plane's. */
async function managementKubeconfig(): Promise<{
  file: string;
  stop?: () => Promise<void>;
}> {
  const state = flag('state') ?? process.env.INFRARED_DEVENV_STATE;
  if (state) {
    return {
      file: openControlPlane(state).cluster('management').kubeconfigPath,
    };
  }
  const cp = await startControlPlane({ clusters: ['management'] });
  return {
    file: cp.cluster('management').kubeconfigPath,
    stop: () => cp.stop(),
  };
}

async function waitHealthy(url: string, token: string, backend: ChildProcess) {
  const deadline = Date.now() + 180_000;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    if (backend.exitCode !== null)
      throw new Error(`the backend exited with ${backend.exitCode}`);
    try {
      const res = await fetch(url, {
        headers: { Authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(5_000),
      });
      if (res.status === 200) return res.json();
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`${url} did not answer 200 within 180 s`);
}

/** The databases Backstage made in PostgreSQL (one per plugin): proof it ran on it, not SQLite. */
async function backstageDatabases(connectionString: string): Promise<string[]> {
  const { Client } = require('pg');
  const client = new Client({ connectionString });
  await client.connect();
  try {
    const res = await client.query(
      "SELECT datname FROM pg_database WHERE datname LIKE 'backstage_plugin_%' ORDER BY datname",
    );
    return res.rows.map((r: { datname: string }) => r.datname);
  } finally {
    await client.end();
  }
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise(r => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null && child.signalCode === null)
    child.kill('SIGKILL');
}

/** `node packages/backend` of the unpacked bundle with the production config, on 127.0.0.1. */
async function startBackend(
  dir: string,
  postgres: LocalPostgres,
  kubeconfigFile: string,
) {
  const port = await freePort();
  const token = crypto.randomBytes(24).toString('base64url');
  const local = path.join(dir, 'app-config.bench.yaml');
  fs.writeFileSync(
    local,
    // a string like app-config.production.yaml's ':7007', which it overrides
    `backend:\n  listen: '127.0.0.1:${port}'\n`,
  );
  const log = path.join(dir, 'backend.log');
  const out = fs.openSync(log, 'a');
  const started = Date.now();
  const backend = spawn(
    process.execPath,
    [
      'packages/backend',
      '--config',
      path.join(ROOT, 'app-config.yaml'),
      '--config',
      path.join(ROOT, 'app-config.production.yaml'),
      '--config',
      local,
    ],
    {
      cwd: dir,
      stdio: ['ignore', out, out],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        APP_BASE_URL: `http://127.0.0.1:${port}`,
        BACKEND_BASE_URL: `http://127.0.0.1:${port}`,
        POSTGRES_HOST: postgres.connection.host,
        POSTGRES_PORT: String(postgres.connection.port),
        POSTGRES_USER: postgres.connection.user,
        POSTGRES_PASSWORD: 'unused-trust-auth',
        GITHUB_TOKEN: 'bench-token-never-sent',
        // the GitHub sign-in of app-config.production.yaml (nobody signs in here)
        AUTH_GITHUB_CLIENT_ID: 'bench-client-id',
        AUTH_GITHUB_CLIENT_SECRET: 'bench-secret-never-sent',
        INFRARED_GITOPS_REPO_URL: 'https://github.com/infrared-bench/gitops',
        INFRARED_TOKEN: token,
        INFRARED_DEVENV_MANAGEMENT_KUBECONFIG: kubeconfigFile,
      },
    },
  );
  fs.closeSync(out);
  return { backend, port, token, log, started };
}

export async function main() {
  if (!process.argv.includes('--no-build')) {
    const started = Date.now();
    const res = spawnSync(
      process.execPath,
      [path.join(ROOT, 'scripts/build-backend.js'), '--quiet'],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    if (res.status !== 0) throw new Error('npm run build:backend failed');
    console.log(`build:backend: ${seconds(started)} s`);
  }
  if (!fs.existsSync(BUNDLE))
    throw new Error(`${BUNDLE} is missing: run npm run build:backend`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-bundle-'));
  const unpacked = Date.now();
  spawnSync('tar', ['-xzf', BUNDLE, '-C', dir], { stdio: 'inherit' });
  const workspace = linkNodeModules(dir);
  console.log(
    `unpacked and linked in ${seconds(unpacked)} s: ${workspace.join(', ')}`,
  );

  const postgres = await startPostgres();
  const management = await managementKubeconfig();
  const { backend, port, token, log, started } = await startBackend(
    dir,
    postgres,
    management.file,
  );
  try {
    const url = `http://127.0.0.1:${port}/api/infrared/health`;
    const body = await waitHealthy(url, token, backend);
    // The installation's state is what the shared control plane makes it: `npm test`'s own backends
    // (installation gitops=local) may still hold its Lease, and this one (a GitHub repo) then waits,
    // refused, without writing. Any of the guard's states is a backend that runs.
    const states = ['held', 'refused', 'pending', 'unguarded'];
    if (body?.status !== 'ok' || !states.includes(body?.installation?.state))
      throw new Error(`health answered ${JSON.stringify(body)}`);
    const anonymous = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (anonymous.status !== 401)
      throw new Error(
        `health without a token answered ${anonymous.status}, not 401`,
      );
    const databases = await backstageDatabases(postgres.connectionString);
    if (!databases.includes('backstage_plugin_catalog'))
      throw new Error(
        `no Backstage database in PostgreSQL: ${databases.join(', ')}`,
      );
    console.log(
      `PostgreSQL databases the backend made: ${databases.join(', ')}`,
    );
    console.log(
      `backend bundle with PostgreSQL: /api/infrared/health 200 ${JSON.stringify(
        body,
      )} ${seconds(started)} s after start (401 without a token)`,
    );
  } catch (error) {
    console.error(fs.readFileSync(log, 'utf8').slice(-4000));
    throw error;
  } finally {
    await stopProcess(backend);
    await postgres.stop();
    await management.stop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
