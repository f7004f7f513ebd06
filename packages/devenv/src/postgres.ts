import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes';

/** A throwaway PostgreSQL server: its own data directory, a free port, trust auth on 127.0.0.1. */
export interface LocalPostgres {
  /** For Backstage's `backend.database.connection`. */
  connection: { host: string; port: number; user: string };
  connectionString: string;
  /** Fast shutdown, then the data directory is removed. */
  stop(): Promise<void>;
}

const INSTALL_HINT =
  "install PostgreSQL's server (Debian: apt-get install postgresql; `npm test` does it when run as root) or set INFRARED_POSTGRES_BIN to the directory holding initdb and postgres";

/** The directory with initdb, postgres and pg_isready: INFRARED_POSTGRES_BIN, else Debian's newest. */
export function findPostgresBin(): string | undefined {
  const fromEnv = process.env.INFRARED_POSTGRES_BIN;
  if (fromEnv) return fromEnv;
  const debian = '/usr/lib/postgresql';
  if (!fs.existsSync(debian)) return undefined;
  const newest = fs
    .readdirSync(debian)
    .filter(v => fs.existsSync(path.join(debian, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest ? path.join(debian, newest, 'bin') : undefined;
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` system user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      `devenv: running as root, PostgreSQL needs a "postgres" system user to run as; ${INSTALL_HINT}`,
    );
  }
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/**
 * Starts PostgreSQL in a new temporary data directory. Durability is off (fsync, full-page writes):
 * the data lives as long as the test.
 */
export async function startPostgres(): Promise<LocalPostgres> {
  const bin = findPostgresBin();
  if (!bin)
    throw new Error(`devenv: no PostgreSQL server found; ${INSTALL_HINT}`);
  const user = serverUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-postgres-'));
  const data = path.join(dir, 'data');
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const asServer = user ? { uid: user.uid, gid: user.gid } : {};

  execFileSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'],
    { ...asServer, stdio: 'pipe', cwd: dir },
  );
  const port = await freePort();
  const log = fs.openSync(path.join(dir, 'postgres.log'), 'a');
  if (user) fs.fchownSync(log, user.uid, user.gid);
  const server = spawn(
    path.join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-k',
      dir,
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'max_connections=200',
    ],
    { ...asServer, cwd: dir, stdio: ['ignore', log, log] },
  );
  fs.closeSync(log);
  const exited = new Promise<void>(resolve =>
    server.once('exit', () => resolve()),
  );

  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = spawn(
      path.join(bin, 'pg_isready'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'],
      { stdio: 'ignore' },
    );
    const code = await new Promise<number | null>(r => ready.once('exit', r));
    if (code === 0) break;
    if (server.exitCode !== null || Date.now() > deadline) {
      server.kill('SIGKILL');
      const tail = fs
        .readFileSync(path.join(dir, 'postgres.log'), 'utf8')
        .slice(-2000);
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`devenv: PostgreSQL did not start:\n${tail}`);
    }
    await sleep(100);
  }

  const connection = { host: '127.0.0.1', port, user: 'postgres' };
  return {
    connection,
    connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (server.exitCode === null) {
        server.kill('SIGINT'); // fast shutdown: ends open sessions
        await Promise.race([exited, sleep(10_000)]);
        if (server.exitCode === null) server.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
