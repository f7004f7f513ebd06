#!/usr/bin/env node
/*
 * The last step of a publishable package's postpack (scripts/publishable.js writes it):
 *   "postpack": "backstage-cli package postpack && node ../../scripts/prepack-check.js --packed"
 * Backstage's prepack points main/types/exports at dist/ whether or not dist/ exists, so `npm pack`
 * without a build gave a tarball with no code and no error. This fails it: every dist/ file the
 * package's entry points need (by its role: .cjs.js, .esm.js, .d.ts) must exist and be newer than
 * every source file under src/ (tests aside); otherwise it removes the tarball npm just wrote
 * (--packed) and exits 1 naming the build commands. It runs after postpack rather than before
 * prepack because Backstage's backend bundle packs a package itself only when its prepack is exactly
 * `backstage-cli package prepack`.
 *   node scripts/prepack-check.js [--packed] [package folder]   (default: the current folder)
 */
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.join(__dirname, '..');
const OUTPUT_EXT = { cjs: '.cjs.js', esm: '.esm.js', types: '.d.ts' };
const SCRIPT = /\.(ts|tsx|js|jsx)$/;
const NOT_PACKED = /\.test\.(ts|tsx|js|jsx)$|(^|\/)setupTests\.(ts|tsx)$/;

/** The dist/ files of each entry point (exports, or index alone) in each output of the role. */
function distEntryFiles(pkg) {
  const { PackageRoles } = require('@backstage/cli-node');
  const { output } = PackageRoles.getRoleInfo(pkg.backstage.role);
  const names = pkg.exports
    ? Object.entries(pkg.exports)
        .filter(([, target]) => SCRIPT.test(target))
        .map(([mount]) => (mount === '.' ? 'index' : mount.slice(2)))
    : ['index'];
  return names.flatMap(name =>
    output
      .filter(kind => OUTPUT_EXT[kind])
      .map(kind => `dist/${name}${OUTPUT_EXT[kind]}`),
  );
}

/** The most recently changed file under src/ that is packed (built), relative to the package. */
function newestSource(dir) {
  const src = path.join(dir, 'src');
  let newest;
  for (const file of fs.readdirSync(src, { recursive: true })) {
    const relative = String(file).split(path.sep).join('/');
    if (NOT_PACKED.test(relative)) continue;
    const stat = fs.statSync(path.join(src, relative));
    if (stat.isFile() && (!newest || stat.mtimeMs > newest.mtimeMs)) {
      newest = { file: `src/${relative}`, mtimeMs: stat.mtimeMs };
    }
  }
  return newest;
}

/** Why `npm pack` in `dir` would pack missing or stale code, in words; [] when dist/ is good. */
function distProblems(dir) {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(dir, 'package.json'), 'utf8'),
  );
  const files = distEntryFiles(pkg);
  const missing = files.filter(file => !fs.existsSync(path.join(dir, file)));
  if (missing.length) return missing.map(file => `${file} is missing`);
  const source = newestSource(dir);
  if (!source) return [];
  return files
    .filter(file => fs.statSync(path.join(dir, file)).mtimeMs < source.mtimeMs)
    .map(file => `${file} is older than ${source.file}`);
}

function buildAdvice(dir) {
  const where = path.relative(repoRoot, dir) || '.';
  return [
    'Build it first, from the repository root:',
    `  npx tsc && (cd ${where} && npx backstage-cli package build)`,
    '(or `npx tsc && npm run build:all` for every package), then npm pack again.',
  ].join('\n');
}

/** The tarball `npm pack` wrote for the package in `dir` (libnpmpack's file name), if any. */
function removeTarball(dir) {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(dir, 'package.json'), 'utf8'),
  );
  const file = `${pkg.name}-${pkg.version}.tgz`
    .replace(/^@/, '')
    .replace(/[/\\]/g, '-');
  const destination = process.env.npm_config_pack_destination || dir;
  fs.rmSync(path.resolve(destination, file), { force: true });
}

function main() {
  const args = process.argv.slice(2);
  const packed = args.includes('--packed');
  const dir = path.resolve(args.find(a => a !== '--packed') ?? process.cwd());
  const problems = distProblems(dir);
  if (!problems.length) return 0;
  if (packed) removeTarball(dir);
  const name = JSON.parse(
    fs.readFileSync(path.join(dir, 'package.json'), 'utf8'),
  ).name;
  console.error(
    `${name}: npm pack stopped, dist/ is not built from the current sources:\n${problems
      .map(p => `  - ${p}`)
      .join('\n')}\n${buildAdvice(dir)}`,
  );
  return 1;
}

module.exports = { distEntryFiles, distProblems };

if (require.main === module) process.exit(main());
