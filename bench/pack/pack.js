/*
 * Packs the publishable packages the way `npm pack` does in their folders (prepack: Backstage's
 * productionPack rewrites package.json to the dist/ entry points and publishConfig), but into a
 * copy, so the shared working tree's package.json files are never rewritten while others work.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { distEntryFiles, distProblems } = require('../../scripts/prepack-check');

const repoRoot = path.join(__dirname, '..', '..');
const bin = name => path.join(repoRoot, 'node_modules', '.bin', name);

function must(command, args, options) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 15 * 60_000,
    ...options,
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${options.cwd}): exit ${
        result.status ?? result.signal
      }\n${result.stdout ?? ''}${result.stderr ?? ''}`.trim(),
    );
  }
  return result.stdout;
}

/** backstage-cli package build in the package's folder; returns the seconds it took. */
function buildPackage(dir) {
  const started = Date.now();
  must(bin('backstage-cli'), ['package', 'build'], { cwd: dir });
  return (Date.now() - started) / 1000;
}

/** productionPack into `target` (cwd = the package, as prepack runs it: config schemas resolve so). */
function productionPackCopy(dir, target) {
  const script = `
    const { productionPack } = require(${JSON.stringify(
      require.resolve(
        '@backstage/cli-module-build/dist/lib/packager/productionPack.cjs.js',
        { paths: [repoRoot] },
      ),
    )});
    productionPack({ packageDir: process.cwd(), targetDir: ${JSON.stringify(
      target,
    )} }).catch(e => { console.error(e); process.exit(1); });`;
  must(process.execPath, ['-e', script], { cwd: dir });
}

/** npm pack of the prepared copy (its prepack already applied); the tarball's facts. */
function npmPack(copy, destination) {
  const out = must(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', destination],
    { cwd: copy },
  );
  const [info] = JSON.parse(out);
  return {
    name: info.name,
    version: info.version,
    tarball: path.join(destination, info.filename),
    size: info.size,
    unpackedSize: info.unpackedSize,
    files: info.entryCount,
    paths: info.files.map(f => f.path),
  };
}

/** Builds and packs each package folder (relative to the repository) into workDir/tarballs. */
function packAll(dirs, workDir) {
  const tarballs = path.join(workDir, 'tarballs');
  fs.mkdirSync(tarballs, { recursive: true });
  return dirs.map(dir => {
    const full = path.join(repoRoot, dir);
    const buildSeconds = buildPackage(full);
    // what the package's own prepack checks first: npm pack there would stop otherwise
    const problems = distProblems(full);
    if (problems.length) {
      throw new Error(`${dir}: after the build, ${problems.join('; ')}`);
    }
    const copy = path.join(workDir, 'packed', path.basename(dir));
    productionPackCopy(full, copy);
    const { paths, ...packed } = npmPack(copy, tarballs);
    // dist/ rebuilt by someone else while it was copied leaves a tarball without code
    const pkg = JSON.parse(
      fs.readFileSync(path.join(full, 'package.json'), 'utf8'),
    );
    const lacking = distEntryFiles(pkg).filter(file => !paths.includes(file));
    if (lacking.length) {
      throw new Error(`${dir}: the tarball lacks ${lacking.join(', ')}`);
    }
    return { dir, buildSeconds, ...packed };
  });
}

module.exports = { packAll, must, repoRoot };
