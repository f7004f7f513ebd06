import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The project's Helm chart, relative to the repository root. */
export const CHART_DIR = path.join('deploy', 'helm', 'infrared-clusters');
const CHART_NAME = 'infrared-clusters';

/**
 * The values deploy/crds and deploy/rbac are rendered with: the chart's defaults, plus the
 * Namespaces, since the tests and devenv start from an empty API server.
 */
export const DEPLOY_VALUES: Record<string, string> = {
  'namespaces.create': 'true',
};

/** The folders rendered from the chart: its crds/ into deploy/crds, its templates/ into deploy/rbac. */
const GENERATED: Record<string, string> = {
  crds: path.join('deploy', 'crds'),
  templates: path.join('deploy', 'rbac'),
};

/** Runs helm, returning stdout; throws with helm's own message when it exits non-zero. */
export function runHelm(helm: string, args: string[], cwd: string): string {
  const res = spawnSync(helm, args, { cwd, encoding: 'utf8' });
  if (res.status !== 0) {
    throw new Error(
      `helm ${args[0]} failed (exit ${res.status}): ${(
        res.stderr || res.stdout
      ).trim()}`,
    );
  }
  return res.stdout;
}

/** `helm template` of the chart with `--set` values (and its CRDs when asked). */
export function renderChart(
  helm: string,
  repoRoot: string,
  opts: { set?: Record<string, string>; includeCrds?: boolean } = {},
): string {
  const set = Object.entries(opts.set ?? {}).flatMap(([k, v]) => [
    '--set',
    `${k}=${v}`,
  ]);
  return runHelm(
    helm,
    [
      'template',
      CHART_NAME,
      CHART_DIR,
      ...(opts.includeCrds ? ['--include-crds'] : []),
      ...set,
    ],
    repoRoot,
  );
}

/** The documents of a render, each with the chart file it came from (`crds/x.yaml`, `templates/y.yaml`). */
export function splitRender(
  render: string,
): Array<{ source: string; text: string }> {
  return render
    .split(/^---\n(?=# Source: )/m)
    .filter(chunk => chunk.startsWith('# Source: '))
    .map(chunk => {
      const newline = chunk.indexOf('\n');
      const source = chunk.slice('# Source: '.length, newline);
      return {
        source: source.replace(`${CHART_NAME}/`, ''),
        // a chart file's own leading `---` (crds/ files have one, so `helm show crds` is a stream)
        text: chunk
          .slice(newline + 1)
          .replace(/^---\n/, '')
          .trimEnd(),
      };
    })
    .filter(doc => doc.text.length > 0);
}

/**
 * The files of deploy/crds and deploy/rbac as a render (with CRDs) gives them: path relative to
 * the repository root -> content, each file the documents of one chart file, in render order.
 */
export function deployManifests(render: string): Map<string, string> {
  const bySource = new Map<string, string[]>();
  for (const doc of splitRender(render)) {
    bySource.set(doc.source, [...(bySource.get(doc.source) ?? []), doc.text]);
  }
  const files = new Map<string, string>();
  for (const [source, docs] of [...bySource].sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const [folder, file] = source.split('/');
    if (!GENERATED[folder] || !file) {
      throw new Error(
        `the chart renders ${source}, outside crds/ and templates/`,
      );
    }
    const header = `# Generated from ${path.join(
      CHART_DIR,
      source,
    )} by \`npx devenv chart\`: edit the chart, not this file.\n`;
    files.set(
      path.join(GENERATED[folder], file),
      `${header}${docs.join('\n---\n')}\n`,
    );
  }
  return files;
}

function generatedOnDisk(repoRoot: string): string[] {
  return Object.values(GENERATED).flatMap(dir =>
    fs.existsSync(path.join(repoRoot, dir))
      ? fs
          .readdirSync(path.join(repoRoot, dir))
          .filter(f => /\.ya?ml$/.test(f))
          .map(f => path.join(dir, f))
      : [],
  );
}

/** The generated files that differ from `files`: changed, missing, or left over. */
export function deployDrift(
  repoRoot: string,
  files: Map<string, string>,
): string[] {
  const onDisk = generatedOnDisk(repoRoot);
  const changed = [...files].filter(([file, content]) => {
    const full = path.join(repoRoot, file);
    return !fs.existsSync(full) || fs.readFileSync(full, 'utf8') !== content;
  });
  return [
    ...changed.map(([file]) => file),
    ...onDisk.filter(file => !files.has(file)),
  ].sort();
}

/** Writes deploy/crds and deploy/rbac from `files`, removing left-over YAML there; returns what changed. */
export function writeDeployManifests(
  repoRoot: string,
  files: Map<string, string>,
): string[] {
  const drift = deployDrift(repoRoot, files);
  for (const file of drift) {
    const full = path.join(repoRoot, file);
    const content = files.get(file);
    if (content === undefined) {
      fs.rmSync(full);
    } else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
    }
  }
  return drift;
}
