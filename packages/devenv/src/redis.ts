import fs from 'node:fs';
import path from 'node:path';

const DEBIAN_REDIS = '/usr/bin/redis-server';

/**
 * Debian's `redis-server` (Argo CD's cache): INFRARED_REDIS_SERVER when set, else
 * /usr/bin/redis-server, installed with apt-get when missing and running as root (the project's
 * scripts/debian-packages.js, as for postgresql); otherwise fails saying what to install.
 */
export function findRedisServer(log: (m: string) => void = () => {}): string {
  const fromEnv = process.env.INFRARED_REDIS_SERVER;
  if (fromEnv) return fromEnv;
  if (fs.existsSync(DEBIAN_REDIS)) return DEBIAN_REDIS;
  // eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
  const script = path.resolve(__dirname, '../../../scripts/debian-packages.js');
  if (fs.existsSync(script)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ensureDebianPackage } = require(script);
    ensureDebianPackage('redis-server', log);
  }
  if (fs.existsSync(DEBIAN_REDIS)) return DEBIAN_REDIS;
  throw new Error(
    "devenv: no redis-server for Argo CD: install Debian's redis-server (apt-get install redis-server; `npm test` does it when run as root) or set INFRARED_REDIS_SERVER to a redis-server binary",
  );
}
