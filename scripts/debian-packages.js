/*
 * System packages the tests use that npm cannot install: Debian's chromium (browser tests),
 * postgresql (the backend on PostgreSQL) and redis-server (Argo CD's cache, devenv's startArgoCd).
 * Installed with apt-get when missing and this runs as root, as it does in CI; otherwise the tests
 * that need them say what to install.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

const PACKAGES = {
  chromium: () =>
    fs.existsSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium'),
  postgresql: () =>
    Boolean(process.env.INFRARED_POSTGRES_BIN) ||
    (fs.existsSync('/usr/lib/postgresql') &&
      fs.readdirSync('/usr/lib/postgresql').length > 0),
  // Argo CD's cache (packages/devenv startArgoCd)
  'redis-server': () =>
    Boolean(process.env.INFRARED_REDIS_SERVER) ||
    fs.existsSync('/usr/bin/redis-server'),
};

let updated = false;

/** True when `name` is present, after installing it with apt-get if it was not and we may. */
function ensureDebianPackage(name, log = console.log) {
  const present = PACKAGES[name];
  if (present()) return true;
  const isRoot = process.getuid && process.getuid() === 0;
  if (isRoot && spawnSync('which', ['apt-get']).status === 0) {
    log(`installing Debian ${name} with apt-get (once)`);
    if (!updated) {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      updated = true;
    }
    spawnSync('apt-get', ['install', '-y', '-qq', name], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  return present();
}

module.exports = { ensureDebianPackage };
