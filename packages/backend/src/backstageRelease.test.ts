import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const readJson = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

// The tool that writes the overrides, run here in check mode (a plain Node script).
const { releaseVersions, lockedPackages } = require(path.join(
  root,
  'scripts',
  'backstage-overrides.js',
)) as {
  releaseVersions: () => Map<string, string>;
  lockedPackages: () => Array<[string, { version: string }]>;
};

// The published packages (a plain Node script: the non-private packages under plugins/).
const { publishablePackages } = require(path.join(
  root,
  'scripts',
  'publishable.js',
)) as { publishablePackages: () => string[] };

/** Every version of each @backstage package the lockfile installs, wherever it sits. */
function lockedVersions(): Map<string, Set<string>> {
  const versions = new Map<string, Set<string>>();
  for (const [name, entry] of lockedPackages()) {
    if (!versions.has(name)) versions.set(name, new Set());
    versions.get(name)!.add(entry.version);
  }
  return versions;
}

describe('one Backstage release', () => {
  const overrides: Record<string, string> = readJson('package.json').overrides;

  it('installs each @backstage package once, at the version the overrides pin', () => {
    const off = [...lockedVersions()]
      .filter(([name, versions]) => {
        return versions.size !== 1 || !versions.has(overrides[name]);
      })
      .map(([name, versions]) => `${name}: ${[...versions].join(', ')}`);
    expect(off).toEqual([]);
  });

  it('pins what the release in backstage.json asks for: the overrides are up to date', () => {
    const expected = Object.fromEntries(releaseVersions());
    const pinned = Object.fromEntries(
      Object.entries(overrides).filter(([name]) =>
        name.startsWith('@backstage/'),
      ),
    );
    // When this fails: npm run backstage:overrides, then reinstall (see the script's header).
    expect(pinned).toEqual(expected);
  });

  it("asks, in each published package, for every @backstage dependency as ^<the release's version>", () => {
    // As Backstage's own plugins do: an adopter's app on a later patch or minor of the same major
    // dedupes them instead of nesting a second copy (catalog-react 3.2.3 under an app on 3.3.0).
    const off: string[] = [];
    for (const dir of publishablePackages()) {
      const pkg = readJson(path.join(dir, 'package.json'));
      for (const field of ['dependencies', 'peerDependencies']) {
        for (const [name, spec] of Object.entries<string>(pkg[field] ?? {})) {
          if (name.startsWith('@backstage/') && spec !== `^${overrides[name]}`)
            off.push(
              `${dir} ${field} ${name}: ${spec}, not ^${overrides[name]}`,
            );
        }
      }
    }
    expect(off).toEqual([]);
  });
});
