#!/usr/bin/env node
/*
 * bench/adopt: docs/install.md followed word for word on a new app from @backstage/create-app.
 *   node bench/adopt/run.js --state /tmp/devenv-shared/state.json [--keep] [--update-fixtures]
 * 1. tools: yarn (classic, from the npm registry; it hands over to the yarn 4 create-app ships) and
 *    helm (packages/devenv's);
 * 2. `npx @backstage/create-app@<CREATE_APP> --skip-install` into a temporary folder;
 * 3. the nine packages the guide names, built and packed (bench/pack/pack.js) into its
 *    infrared-packages/;
 * 4. an empty management cluster of its own (packages/devenv), with namespace argocd;
 * 5. every marked block of the guide, in order (bench/adopt/guide.js): merges, patches, new files,
 *    `yarn install`, the chart, `yarn tsc`, then `yarn start`;
 * 6. the backend as the chart's ServiceAccount: /api/infrared/health, the --state file's workload-a
 *    registered through POST /api/infrared/v1/clusters until Registered, and its row on the Clusters
 *    page in Debian's Chromium.
 * Each step's time and the total are printed. Every Node process it starts resolves no host but
 * loopback and the npm registry (bench/adopt/guard.js); Chromium's requests elsewhere are aborted.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { packAll, must, repoRoot } = require('../pack/pack');
const { freePort } = require('../pack/scratch');
const { parseGuide, CREATE_APP } = require('./guide');
const { applyStep } = require('./steps');
const portal = require('./portal');

const arg = name => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const flag = name => process.argv.includes(name);

const timings = [];
async function timed(name, fn) {
  const started = Date.now();
  const result = await fn();
  const seconds = (Date.now() - started) / 1000;
  timings.push({ name, seconds });
  console.log(`${seconds.toFixed(1).padStart(7)} s  ${name}`);
  return result;
}

function npmRegistry() {
  const out = spawnSync('npm', ['config', 'get', 'registry'], {
    encoding: 'utf8',
  });
  return out.stdout.trim().replace(/\/$/, '') || 'https://registry.npmjs.org';
}

/** The environment of every command: the tools first on PATH, the guard, the registry. */
function baseEnv(work, registry) {
  const host = new URL(registry).hostname;
  const inherited = { ...process.env };
  delete inherited.CI; // yarn in CI mode refuses to write the lockfile
  return {
    ...inherited,
    PATH: [
      path.join(work, 'tools', 'bin'),
      path.join(work, 'tools', 'node_modules', '.bin'),
      path.dirname(process.execPath),
      process.env.PATH,
    ].join(':'),
    NODE_OPTIONS: `--require ${path.join(__dirname, 'guard.js')}`,
    ADOPT_ALLOWED_HOSTS: host,
    ADOPT_REFUSED_LOG: path.join(work, 'refused-hosts.log'),
    YARN_NPM_REGISTRY_SERVER: registry,
    YARN_ENABLE_PROGRESS_BARS: 'false',
    YARN_ENABLE_TELEMETRY: 'false',
    // native addons (better-sqlite3) built here against this Node's headers, never downloaded
    npm_config_build_from_source: 'true',
    npm_config_nodedir: path.dirname(path.dirname(process.execPath)),
  };
}

/** yarn classic from the npm registry (create-app checks `yarn -v`; the app's yarnPath takes over). */
function installYarn(work, env) {
  const tools = path.join(work, 'tools');
  fs.mkdirSync(path.join(tools, 'bin'), { recursive: true });
  must(
    'npm',
    ['install', '--prefix', tools, '--no-audit', '--no-fund', 'yarn@1.22.22'],
    { cwd: work, env },
  );
}

function createApp(work, env) {
  must(
    'npx',
    [
      '--yes',
      `@backstage/create-app@${CREATE_APP}`,
      '--skip-install',
      '--path',
      'app',
    ],
    { cwd: work, env: { ...env, BACKSTAGE_APP_NAME: 'adopted' } },
  );
  return path.join(work, 'app');
}

/**
 * bench/pack's packAll for one package, again when its tarball has no dist/: the working tree is
 * shared, and another engineer's `npm pack` (its postpack, a clean) can take dist/ away between
 * the build and the copy.
 */
function packWithDist(dir, work) {
  for (let attempt = 1; ; attempt++) {
    const [packed] = packAll([dir], work);
    const entries = must('tar', ['tzf', packed.tarball], { cwd: work });
    if (entries.split('\n').some(e => e.startsWith('package/dist/'))) {
      return packed;
    }
    if (attempt === 3) throw new Error(`${packed.tarball} has no dist/`);
    console.log(
      `           ${path.basename(packed.tarball)} had no dist/: packed again`,
    );
    fs.rmSync(path.join(work, 'packed', path.basename(dir)), {
      recursive: true,
      force: true,
    });
  }
}

/** The packages the guide's root package.json resolutions name, packed into infrared-packages/. */
function packGuidePackages(steps, work, appDir) {
  const root = steps.find(
    s => s.action === 'merge' && s.file === 'package.json',
  );
  const wanted = JSON.parse(root.body).resolutions;
  const dirs = fs
    .readdirSync(path.join(repoRoot, 'plugins'))
    .map(d => path.join('plugins', d))
    .filter(d => {
      const file = path.join(repoRoot, d, 'package.json');
      return (
        fs.existsSync(file) &&
        JSON.parse(fs.readFileSync(file, 'utf8')).name in wanted
      );
    });
  // the declarations backstage-cli package build bundles (dist-types): the repository's tsc,
  // incremental; an error in a file of another package does not stop the emit, a missing file does
  spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), [], {
    cwd: repoRoot,
    stdio: 'ignore',
  });
  const packed = dirs.map(dir => packWithDist(dir, work));
  const target = path.join(appDir, 'infrared-packages');
  fs.mkdirSync(target, { recursive: true });
  for (const p of packed)
    fs.copyFileSync(p.tarball, path.join(target, path.basename(p.tarball)));
  for (const [name, spec] of Object.entries(wanted)) {
    const file = path.join(appDir, spec.replace(/^file:/, ''));
    if (!fs.existsSync(file)) {
      throw new Error(
        `the guide names ${spec} for ${name}; packed: ${packed
          .map(p => path.basename(p.tarball))
          .join(', ')}`,
      );
    }
  }
  return packed;
}

/** --update-fixtures: the created app's file list and the files the guide changes, for the jest test. */
function updateFixtures(appDir, steps) {
  const dir = path.join(__dirname, `create-app-${CREATE_APP}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const files = must('git', ['ls-files'], { cwd: appDir }).trim().split('\n');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'files.txt'), `${files.join('\n')}\n`);
  for (const step of steps.filter(
    s => s.action === 'merge' || s.action === 'patch',
  )) {
    const target = path.join(dir, `${step.file}.orig`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(appDir, step.file), target);
  }
  fs.copyFileSync(
    path.join(appDir, 'backstage.json'),
    path.join(dir, 'backstage.json.orig'),
  );
  console.log(`fixtures written to ${path.relative(repoRoot, dir)}`);
}

async function startAndCheck(step, context, { stateFile, work }) {
  const [appPort, backendPort] = [await freePort(), await freePort()];
  const appUrl = `http://127.0.0.1:${appPort}`;
  const base = `http://127.0.0.1:${backendPort}`;
  const env = {
    ...context.env,
    // where this machine lets the app listen: loopback ports, over create-app's localhost:3000/7007
    APP_CONFIG_app_baseUrl: appUrl,
    APP_CONFIG_backend_baseUrl: base,
    APP_CONFIG_backend_listen_host: '127.0.0.1',
    APP_CONFIG_backend_listen_port: String(backendPort),
    APP_CONFIG_backend_cors_origin: appUrl,
  };
  const started = portal.startBlock(step, {
    ...context,
    env,
    logFile: path.join(work, 'logs', 'start.log'),
  });
  try {
    const token = await timed(
      `docs/install.md:${step.line} start: /api/infrared/health 200`,
      () => portal.waitForBackend(base, started),
    );
    await timed('the app page served', () =>
      portal.waitForApp(appUrl, started),
    );
    const { stateKubeconfig } = require('./cluster');
    const registered = await timed(
      'workload-a: POST /v1/clusters until Registered',
      () =>
        portal.registerCluster(base, token, {
          name: 'workload-a',
          kubeconfig: stateKubeconfig(stateFile, 'workload-a'),
        }),
    );
    console.log(
      `           Registered: ${registered.reason} ${registered.message ?? ''}`,
    );
    const seen = await timed(
      'Chromium: the Clusters page shows workload-a',
      () =>
        portal.seeClusterRow(
          appUrl,
          'workload-a',
          path.join(work, 'clusters.png'),
        ),
    );
    console.log(`           row: ${seen.text.slice(0, 160)}`);
    if (seen.refused.length)
      console.log(
        `           Chromium requests aborted (not loopback): ${seen.refused.join(
          ', ',
        )}`,
      );
  } catch (error) {
    console.error(
      fs
        .readFileSync(started.logFile, 'utf8')
        .split('\n')
        .slice(-60)
        .join('\n'),
    );
    throw error;
  } finally {
    started.stop();
  }
}

async function followGuide(steps, context, options) {
  for (const step of steps) {
    const what = `docs/install.md:${step.line} ${step.action}${
      step.file ? ` ${step.file}` : ''
    }`;
    if (step.action === 'start') {
      const file = await options.cluster.backendKubeconfig(
        options.management.cluster,
        path.join(options.work, 'backend.kubeconfig'),
      );
      context.env.INFRARED_MANAGEMENT_KUBECONFIG = file;
      await startAndCheck(step, context, options);
      continue;
    }
    const label =
      step.action === 'run'
        ? `${what}: ${step.body.trim().split('\n')[0]}`
        : what;
    const logFile = path.join(options.work, 'logs', `line-${step.line}.log`);
    await timed(label, () => applyStep(step, { ...context, logFile }));
    if (/helm upgrade --install/.test(step.body)) {
      const crds = await options.cluster.checkChart(options.management.cluster);
      console.log(
        `           chart: ${crds.join(
          ', ',
        )}; ServiceAccount infrared/infrared-backend`,
      );
    }
  }
}

async function main() {
  const stateFile = arg('--state') ?? process.env.INFRARED_DEVENV_STATE;
  if (!stateFile)
    throw new Error(
      'give --state <devenv state.json> (or INFRARED_DEVENV_STATE)',
    );
  const steps = parseGuide();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-adopt-'));
  fs.mkdirSync(path.join(work, 'logs'));
  const env = baseEnv(work, npmRegistry());
  const cluster = require('./cluster');
  let management;
  const total = Date.now();
  try {
    await timed('yarn 1.22.22 from the npm registry', () =>
      installYarn(work, env),
    );
    const appDir = await timed(
      `npx @backstage/create-app@${CREATE_APP} --skip-install`,
      () => createApp(work, env),
    );
    if (flag('--update-fixtures')) updateFixtures(appDir, steps);
    await timed('build and pack the nine packages', () =>
      packGuidePackages(steps, work, appDir),
    );
    management = await timed(
      'an empty management cluster (devenv), namespace argocd',
      () => cluster.startManagement(work),
    );
    fs.symlinkSync(management.helmBin, path.join(work, 'tools', 'bin', 'helm'));
    env.INFRARED_REPO = repoRoot;
    env.KUBECONFIG = management.cluster.kubeconfigPath;
    env.INFRARED_GITOPS_PATH = path.join(work, 'gitops.git');
    await followGuide(
      steps,
      { appDir, env },
      { cluster, management, stateFile, work },
    );
    const refused = fs.existsSync(env.ADOPT_REFUSED_LOG)
      ? [
          ...new Set(
            fs.readFileSync(env.ADOPT_REFUSED_LOG, 'utf8').trim().split('\n'),
          ),
        ]
      : [];
    if (refused.length)
      console.log(`hosts refused to Node processes: ${refused.join(', ')}`);
    console.log(
      `${((Date.now() - total) / 1000).toFixed(1).padStart(7)} s  total`,
    );
  } finally {
    if (management) await management.plane.stop();
    if (flag('--keep')) console.log(`kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch(error => {
  console.error(`bench/adopt: ${error.stack ?? error.message}`);
  process.exit(1);
});
