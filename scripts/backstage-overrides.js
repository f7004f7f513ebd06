#!/usr/bin/env node
/*
 * Pins every @backstage package, direct or transitive, to the Backstage release in backstage.json,
 * through the root package.json's `overrides`. Without them npm resolves a transitive caret range to
 * the newest match, which is often a later release (backend-plugin-api 1.12.0 beside 1.10.1).
 *
 * The release's versions are read from the release's own packages: a package published in a
 * release asks for its @backstage dependencies as `^<their version in that release>`. Starting from
 * the workspaces' versions (exact pins in the root and packages/*; in the published plugins/*, the
 * same `^<release version>` ranges Backstage's own plugins use, whose floor counts as the pin), each
 * dependency gets the highest version any release package asks for, until nothing changes. Package metadata comes from package-lock.json, or `npm view` when
 * the version is not installed.
 *
 *   node scripts/backstage-overrides.js          # print the overrides
 *   node scripts/backstage-overrides.js --write  # write them into package.json, then:
 *   (remove the lock's @backstage entries: npm keeps locked versions over new overrides) npm install
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const semver = require('semver');

const root = path.resolve(__dirname, '..');
const readJson = file => JSON.parse(fs.readFileSync(file, 'utf8'));
const SCOPE = '@backstage/';

/** Every @backstage package the lockfile installs, wherever it sits: [name, lock entry]. */
function lockedPackages() {
  const lock = readJson(path.join(root, 'package-lock.json'));
  return Object.entries(lock.packages)
    .map(([where, entry]) => [
      where.match(/node_modules\/(@backstage\/[^/]+)$/)?.[1],
      entry,
    ])
    .filter(([name]) => name);
}

function lockedManifests() {
  return new Map(
    lockedPackages().map(([name, entry]) => [
      `${name}@${entry.version}`,
      entry,
    ]),
  );
}

/** `^x.y.z` in a package under plugins/ (published: adopters' apps may be on a later patch). */
const CARET = /^\^(\d+\.\d+\.\d+)$/;

/**
 * The @backstage versions the root and every workspace package.json ask for: exact pins, or under
 * plugins/ the floor of a caret range.
 */
function workspacePins() {
  const rootFile = path.join(root, 'package.json');
  const files = [rootFile];
  for (const pattern of readJson(rootFile).workspaces) {
    const dir = path.join(root, pattern.replace(/\/\*$/, ''));
    for (const entry of fs.readdirSync(dir)) {
      const file = path.join(dir, entry, 'package.json');
      if (fs.existsSync(file)) files.push(file);
    }
  }
  const pins = new Map();
  for (const file of files) {
    const { dependencies, devDependencies, peerDependencies } = readJson(file);
    const where = path.relative(root, file);
    const published = where.split(path.sep)[0] === 'plugins';
    for (const [name, spec] of Object.entries({
      ...dependencies,
      ...devDependencies,
      ...peerDependencies,
    })) {
      if (!name.startsWith(SCOPE)) continue;
      const version = (published && spec.match(CARET)?.[1]) || spec;
      if (!semver.valid(version)) {
        throw new Error(
          `${where}: ${name} is "${spec}"; ${
            published ? 'use ^<its release version> or' : ''
          } pin it exactly to its release version`,
        );
      }
      if (pins.has(name) && pins.get(name) !== version) {
        throw new Error(
          `${where}: ${name} is ${spec}, elsewhere ${pins.get(name)}`,
        );
      }
      pins.set(name, version);
    }
  }
  return pins;
}

function releaseVersions() {
  const manifests = lockedManifests();
  const dependenciesOf = (name, version) => {
    const key = `${name}@${version}`;
    if (!manifests.has(key)) {
      const out = execFileSync(
        'npm',
        ['view', key, 'dependencies', 'peerDependencies', '--json'],
        { encoding: 'utf8' },
      ).trim();
      const viewed = out ? JSON.parse(out) : {};
      manifests.set(
        key,
        'dependencies' in viewed || 'peerDependencies' in viewed
          ? viewed
          : { dependencies: viewed },
      );
    }
    const manifest = manifests.get(key);
    return { ...manifest.dependencies, ...manifest.peerDependencies };
  };

  const pins = workspacePins();
  const release = new Map(pins);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, version] of [...release]) {
      for (const [dep, range] of Object.entries(
        dependenciesOf(name, version),
      )) {
        if (!dep.startsWith(SCOPE)) continue;
        const asked = semver.minVersion(range)?.version;
        if (!asked) continue;
        const current = release.get(dep);
        if (pins.has(dep)) {
          if (semver.gt(asked, current)) {
            throw new Error(
              `${name}@${version} asks for ${dep} ${range}, newer than the pinned ${current}: the pins are not one release`,
            );
          }
        } else if (!current || semver.gt(asked, current)) {
          release.set(dep, asked);
          changed = true;
        }
      }
    }
  }
  return new Map([...release].sort(([a], [b]) => a.localeCompare(b)));
}

function main() {
  const versions = releaseVersions();
  const overrides = Object.fromEntries(versions);
  if (!process.argv.includes('--write')) {
    console.log(JSON.stringify(overrides, null, 2));
    return;
  }
  const file = path.join(root, 'package.json');
  const manifest = readJson(file);
  const others = Object.entries(manifest.overrides ?? {}).filter(
    ([name]) => !name.startsWith(SCOPE),
  );
  manifest.overrides = { ...Object.fromEntries(others), ...overrides };
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`package.json: ${versions.size} @backstage overrides`);
}

if (require.main === module) main();
module.exports = { releaseVersions, lockedPackages };
