#!/usr/bin/env node
/*
 * The publishable packages: every package under plugins/ that is not "private". For each:
 *   node scripts/publishable.js list              their folders
 *   node scripts/publishable.js check             what publishing needs is there (exit 1 naming what is not)
 *   node scripts/publishable.js fix               writes the mechanical fields (publishConfig from the role,
 *                                                 prepack/postpack, files, repository, license)
 *   node scripts/publishable.js api-reports [--ci]
 *                                                 backstage-repo-tools api-reports for them (--ci: fail when a
 *                                                 checked-in report.api.md is not what the sources export;
 *                                                 without it, reports are written from a clean tsc)
 * Development keeps running from src/ (main/types/exports point at src); `backstage-cli package prepack`
 * swaps in publishConfig and the dist/ entry points when npm packs, and postpack puts package.json back.
 * After postpack, scripts/prepack-check.js fails npm pack (and removes its tarball) when dist/ is missing
 * or older than src/.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.join(__dirname, '..');
const SCOPE = '@infrared-clusters/';
const LICENSE = 'Apache-2.0';

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Folders (relative to the repository root) of the non-private packages under plugins/. */
function publishablePackages(root = repoRoot) {
  const plugins = path.join(root, 'plugins');
  return fs
    .readdirSync(plugins, { withFileTypes: true })
    .filter(d => d.isDirectory())
    .map(d => path.join('plugins', d.name))
    .filter(dir => {
      const file = path.join(root, dir, 'package.json');
      return fs.existsSync(file) && readJson(file).private !== true;
    })
    .sort();
}

/** publishConfig as Backstage's own packages have it: access public and dist/ entry points by role. */
function expectedPublishConfig(pkg) {
  const { PackageRoles } = require('@backstage/cli-node');
  const { output } = PackageRoles.getRoleInfo(pkg.backstage.role);
  const config = { access: 'public' };
  config.main = output.includes('cjs')
    ? 'dist/index.cjs.js'
    : 'dist/index.esm.js';
  if (output.includes('esm')) config.module = 'dist/index.esm.js';
  config.types = 'dist/index.d.ts';
  return config;
}

function expectedRepository(dir, rootDir = repoRoot) {
  const root = readJson(path.join(rootDir, 'package.json')).repository;
  return { type: root.type, url: root.url, directory: dir };
}

/**
 * prepack-check.js fails npm pack when dist/ is missing or older than src/ (prepack packs dist/). It
 * runs after postpack, not before prepack: Backstage's backend bundle (createDistWorkspace) copies a
 * package itself only when its prepack is exactly `backstage-cli package prepack`, and otherwise runs
 * `yarn pack`.
 */
const PACK_SCRIPTS = {
  prepack: 'backstage-cli package prepack',
  postpack:
    'backstage-cli package postpack && node ../../scripts/prepack-check.js --packed',
};

/** Every entry point of `exports` (or main) points at the sources, so the workspace runs from src/. */
function sourceEntryProblems(pkg) {
  const problems = [];
  if (pkg.main !== 'src/index.ts') problems.push('main is not src/index.ts');
  if (pkg.types !== 'src/index.ts') problems.push('types is not src/index.ts');
  for (const [mount, target] of Object.entries(pkg.exports ?? {})) {
    if (mount !== './package.json' && !/^\.\/src\//.test(target)) {
      problems.push(`exports["${mount}"] is not under ./src/`);
    }
  }
  return problems;
}

/** What `dir`'s package.json lacks for npm publish, in words; [] when nothing. */
function packageProblems(dir, root = repoRoot) {
  const pkg = readJson(path.join(root, dir, 'package.json'));
  const problems = [];
  if (!pkg.name?.startsWith(SCOPE)) problems.push(`name is not under ${SCOPE}`);
  if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(pkg.version ?? '')) {
    problems.push('version is not a semver version');
  }
  if (!pkg.description) problems.push('no description');
  if (pkg.license !== LICENSE) problems.push(`license is not ${LICENSE}`);
  if (!pkg.backstage?.role) problems.push('no backstage.role');
  else {
    const want = expectedPublishConfig(pkg);
    const have = pkg.publishConfig ?? {};
    for (const [key, value] of Object.entries(want)) {
      if (have[key] !== value)
        problems.push(`publishConfig.${key} is not ${value}`);
    }
  }
  const repo = expectedRepository(dir, root);
  if (
    pkg.repository?.url !== repo.url ||
    pkg.repository?.directory !== repo.directory
  ) {
    problems.push(`repository is not ${repo.url} directory ${dir}`);
  }
  if (!pkg.files?.includes('dist')) problems.push('files does not list dist');
  for (const [name, command] of Object.entries(PACK_SCRIPTS)) {
    if (pkg.scripts?.[name] !== command)
      problems.push(`scripts.${name} is not "${command}"`);
  }
  for (const [dep, range] of Object.entries(pkg.dependencies ?? {})) {
    if (dep.startsWith('@internal/'))
      problems.push(`depends on the private ${dep}`);
    if (dep.startsWith(SCOPE) && range === '*') {
      problems.push(`dependency ${dep} has range "*" (use ^<its version>)`);
    }
  }
  return [...problems, ...sourceEntryProblems(pkg)];
}

/** The version of each package under plugins/, by name. */
function workspaceVersions() {
  const plugins = path.join(repoRoot, 'plugins');
  const versions = {};
  for (const name of fs.readdirSync(plugins)) {
    const file = path.join(plugins, name, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = readJson(file);
      versions[pkg.name] = pkg.version;
    }
  }
  return versions;
}

/** Puts `key` after `after` when it is new, so package.json reads like Backstage's own. */
function withField(pkg, key, value, after) {
  if (key in pkg) return { ...pkg, [key]: value };
  const entries = Object.entries(pkg);
  const at = entries.findIndex(([name]) => name === after);
  entries.splice(at < 0 ? entries.length : at + 1, 0, [key, value]);
  return Object.fromEntries(entries);
}

/** Sets the mechanical fields; the rest (name, version, entry points) stays for a person to decide. */
function fixPackage(dir) {
  const file = path.join(repoRoot, dir, 'package.json');
  let pkg = readJson(file);
  pkg.license = LICENSE;
  pkg = withField(pkg, 'repository', expectedRepository(dir), 'license');
  pkg = withField(
    pkg,
    'publishConfig',
    { ...pkg.publishConfig, ...expectedPublishConfig(pkg) },
    'license',
  );
  pkg.files = pkg.files?.includes('dist')
    ? pkg.files
    : ['dist', ...(pkg.files ?? [])];
  pkg.scripts = { ...pkg.scripts, ...PACK_SCRIPTS };
  const versions = workspaceVersions();
  for (const dep of Object.keys(pkg.dependencies ?? {})) {
    if (pkg.dependencies[dep] === '*' && versions[dep]) {
      pkg.dependencies[dep] = `^${versions[dep]}`;
    }
  }
  fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}

function check() {
  const dirs = publishablePackages();
  let failed = 0;
  for (const dir of dirs) {
    const problems = packageProblems(dir);
    failed += problems.length;
    for (const p of problems) console.error(`${dir}: ${p}`);
  }
  console.log(`${dirs.length} publishable packages, ${failed} problems`);
  return failed ? 1 : 0;
}

/**
 * Every export carries its release tag (@public in the main entry point, @alpha in ./alpha) and the
 * TSDoc parses; a member without a doc comment (ae-undocumented) is not a failure, nor is a sibling
 * workspace package's types read from its src/ (ae-wrong-input-file-type; Backstage omits it too).
 */
const API_REPORT_OPTIONS = [
  '--validate-release-tags',
  '-o',
  'ae-undocumented,ae-wrong-input-file-type',
];

/**
 * Packages whose reports may keep ae-forgotten-export warnings (and no other kind), with the reason.
 */
const FORGOTTEN_EXPORTS_ALLOWED = {
  'plugins/infrared-common':
    'its views alias the models generated from openapi.yaml, several of which share a name with a ' +
    'hand-written type (ClusterFlavor, ClusterTemplate, ...): one schema source (issue 13.2) resolves them',
};

/**
 * Declarations tsc once emitted for sources that are gone (tsc never deletes them); API Extractor
 * would read a stale plan.d.ts beside plan/index.d.ts. Fresh clones have none.
 */
function pruneStaleDeclarations(dirs) {
  for (const dir of dirs) {
    const out = path.join(repoRoot, 'dist-types', dir, 'src');
    if (!fs.existsSync(out)) continue;
    for (const file of fs.readdirSync(out, { recursive: true })) {
      if (!file.endsWith('.d.ts')) continue;
      const source = path.join(
        repoRoot,
        dir,
        'src',
        file.slice(0, -'.d.ts'.length),
      );
      if (!['.ts', '.tsx'].some(ext => fs.existsSync(source + ext))) {
        fs.rmSync(path.join(out, file));
      }
    }
  }
}

/**
 * Declarations from a clean tsc, for writing reports: CI checks them against a clean clone's tsc,
 * and an incremental one can order inferred types differently.
 */
function freshDeclarations() {
  fs.rmSync(path.join(repoRoot, 'dist-types'), {
    recursive: true,
    force: true,
  });
  console.log(
    '[api-reports] tsc (clean) for the declarations the reports are made from',
  );
  return spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), [], {
    cwd: repoRoot,
    stdio: 'inherit',
  }).status;
}

/** The warnings left in the reports that FORGOTTEN_EXPORTS_ALLOWED does not allow. */
function disallowedReportWarnings(dirs) {
  const found = [];
  for (const dir of dirs) {
    const full = path.join(repoRoot, dir);
    for (const file of fs.readdirSync(full)) {
      if (!/^report(-[^.]+)?\.api\.md$/.test(file)) continue;
      const text = fs.readFileSync(path.join(full, file), 'utf8');
      for (const [, code] of text.matchAll(/\/\/ Warning: \(([\w-]+)\)/g)) {
        if (code === 'ae-forgotten-export' && FORGOTTEN_EXPORTS_ALLOWED[dir])
          continue;
        found.push(`${dir}/${file}: ${code}`);
      }
    }
  }
  return found;
}

/** backstage-repo-tools api-reports over the publishable packages; --ci fails on a stale report. */
function apiReports(args) {
  const dirs = publishablePackages();
  if (args.includes('--ci')) pruneStaleDeclarations(dirs);
  else if (freshDeclarations() !== 0) return 1;
  const allowed = dirs.filter(dir => FORGOTTEN_EXPORTS_ALLOWED[dir]);
  const bin = path.join(
    repoRoot,
    'node_modules',
    '.bin',
    'backstage-repo-tools',
  );
  const options = [...API_REPORT_OPTIONS];
  if (allowed.length) options.push('--allow-warnings', allowed.join(','));
  const result = spawnSync(bin, ['api-reports', ...options, ...args, ...dirs], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  const warnings = disallowedReportWarnings(dirs);
  for (const warning of warnings) console.error(`not allowed: ${warning}`);
  return result.status === 0 && warnings.length === 0 ? 0 : 1;
}

module.exports = {
  publishablePackages,
  packageProblems,
  expectedPublishConfig,
};

if (require.main === module) {
  const [command, ...args] = process.argv.slice(2);
  const commands = {
    list: () => (console.log(publishablePackages().join('\n')), 0),
    check,
    fix: () => (publishablePackages().forEach(fixPackage), check()),
    'api-reports': () => apiReports(args),
  };
  if (!commands[command]) {
    console.error(
      `usage: node scripts/publishable.js <${Object.keys(commands).join('|')}>`,
    );
    process.exit(2);
  }
  process.exit(commands[command]());
}
