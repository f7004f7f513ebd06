/*
 * A scratch Backstage app made from this repository's packages/app and packages/backend (as
 * committed: git archive HEAD), whose @infrared-clusters/* dependencies are the packed tarballs.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { must, repoRoot } = require('./pack');

const SCOPE = '@infrared-clusters/';

/** packages/app and packages/backend from HEAD into `appDir`, with the repository's overrides. */
function copyApp(appDir) {
  fs.mkdirSync(appDir, { recursive: true });
  const archive = spawnSync(
    'git',
    ['archive', '--format=tar', 'HEAD', 'packages/app', 'packages/backend'],
    { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 },
  );
  if (archive.status !== 0) throw new Error(String(archive.stderr));
  must('tar', ['-x'], { cwd: appDir, input: archive.stdout });
}

/**
 * Points every @infrared-clusters/* dependency at its tarball's version; drops the repository-only
 * ones (@internal/*, and a private package under plugins/, which npm cannot install). Returns the
 * dropped @infrared-clusters/* names.
 */
function pointAtTarballs(pkgFile, tarballs) {
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  const dropped = [];
  for (const field of ['dependencies', 'devDependencies']) {
    for (const name of Object.keys(pkg[field] ?? {})) {
      const packed = tarballs.find(t => t.name === name);
      if (name.startsWith('@internal/')) delete pkg[field][name];
      else if (name.startsWith(SCOPE) && !packed) {
        delete pkg[field][name];
        dropped.push(name);
      } else if (packed) pkg[field][name] = `^${packed.version}`;
    }
  }
  fs.writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
  return dropped;
}

/** Takes `backend.add(import('<name>'))` out of the backend for each dropped package. */
function dropFromBackend(appDir, names) {
  const file = path.join(appDir, 'packages', 'backend', 'src', 'index.ts');
  let source = fs.readFileSync(file, 'utf8');
  for (const name of names) {
    const quoted = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    source = source.replace(
      new RegExp(
        `backend\\.add\\(\\s*import\\('${quoted}'\\),?\\s*\\);\\n`,
        'g',
      ),
      '',
    );
    if (source.includes(`'${name}'`)) {
      throw new Error(`${file} still uses ${name}, which is not publishable`);
    }
  }
  fs.writeFileSync(file, source);
}

/** The scratch root: the tarballs as its own dependencies, so the workspaces' ^ranges meet them. */
function writeRoot(appDir, tarballs) {
  const repoPkg = JSON.parse(
    fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'),
  );
  const dependencies = Object.fromEntries(
    tarballs.map(t => [t.name, `file:${path.relative(appDir, t.tarball)}`]),
  );
  // React as the repository has it: without a lockfile npm may hoist another major to the root
  for (const name of ['react', 'react-dom']) {
    dependencies[name] = installedVersion(
      path.join(repoRoot, 'node_modules', name),
    );
  }
  const root = {
    name: 'infrared-pack-scratch',
    private: true,
    workspaces: ['packages/*'],
    dependencies,
    // the repository's tooling, whose pins (jsdom, jest) meet @backstage/cli's peers as they do there
    devDependencies: repoPkg.devDependencies,
    overrides: repoPkg.overrides,
  };
  // the repository's npm settings (legacy-peer-deps, as Backstage apps on npm need)
  fs.copyFileSync(path.join(repoRoot, '.npmrc'), path.join(appDir, '.npmrc'));
  fs.writeFileSync(
    path.join(appDir, 'package.json'),
    `${JSON.stringify(root, null, 2)}\n`,
  );
  const dropped = ['app', 'backend'].flatMap(name =>
    pointAtTarballs(
      path.join(appDir, 'packages', name, 'package.json'),
      tarballs,
    ),
  );
  dropFromBackend(appDir, dropped);
  return dropped;
}

/**
 * npm install (serialised with the repository's installs by /tmp/npm.lock), from the local cache
 * first, fetching what it lacks from the configured registry. Install scripts are skipped; the one
 * native addon the backend needs comes from the repository's build of the same version.
 */
function install(appDir) {
  const started = Date.now();
  must(
    'flock',
    [
      '/tmp/npm.lock',
      'npm',
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--ignore-scripts',
    ],
    { cwd: appDir },
  );
  const seconds = (Date.now() - started) / 1000;
  copyNativeBuild(appDir, 'better-sqlite3');
  return seconds;
}

function installedVersion(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
    .version;
}

function copyNativeBuild(appDir, name) {
  const from = path.join(repoRoot, 'node_modules', name);
  const to = path.join(appDir, 'node_modules', name);
  const [want, have] = [installedVersion(from), installedVersion(to)];
  if (want !== have) {
    throw new Error(`${name}: the repository has ${want}, the app ${have}`);
  }
  fs.cpSync(path.join(from, 'build'), path.join(to, 'build'), {
    recursive: true,
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Config over the repository's app-config.yaml: loopback ports, in-memory SQLite, temp paths. */
function writeBenchConfig(appDir, { port, kubeconfigPath }) {
  fs.copyFileSync(
    path.join(repoRoot, 'app-config.yaml'),
    path.join(appDir, 'app-config.yaml'),
  );
  const config = {
    app: { baseUrl: `http://127.0.0.1:${port}` },
    backend: {
      baseUrl: `http://127.0.0.1:${port}`,
      listen: { host: '127.0.0.1', port },
      database: { client: 'better-sqlite3', connection: ':memory:' },
    },
    catalog: { locations: [] },
    infrared: {
      managementCluster: { kubeconfigPath },
      gitops: { type: 'local', path: path.join(appDir, 'gitops.git') },
      registrar: { enabled: false },
      provisioning: { templates: [] },
    },
  };
  const file = path.join(appDir, 'app-config.bench.yaml');
  // YAML is a superset of JSON
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** Starts the backend (backstage-cli package start) in its own process group. */
function startBackend(appDir, configFile, logFile) {
  const out = fs.openSync(logFile, 'w');
  const child = spawn(
    path.join(appDir, 'node_modules', '.bin', 'backstage-cli'),
    [
      'package',
      'start',
      '--config',
      path.join(appDir, 'app-config.yaml'),
      '--config',
      configFile,
    ],
    {
      cwd: path.join(appDir, 'packages', 'backend'),
      detached: true,
      stdio: ['ignore', out, out],
      // app-config.yaml's external-access token: any value, nothing here calls with it
      env: {
        ...process.env,
        NODE_ENV: 'development',
        INFRARED_TOKEN: require('node:crypto')
          .randomBytes(24)
          .toString('base64url'),
      },
    },
  );
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

module.exports = {
  copyApp,
  writeRoot,
  install,
  freePort,
  writeBenchConfig,
  startBackend,
};
