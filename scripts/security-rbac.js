#!/usr/bin/env node
/*
 * SECURITY.md's RBAC tables, kept equal to what the project grants (packages/backend
 * src/security.test.ts checks them):
 *   - "chart": every rule of every Role and ClusterRole in deploy/rbac (the chart's render, held
 *     equal to deploy/helm by the chart drift test), per subject bound to it;
 *   - "runtime": the Roles the backend makes itself (an OpenTofu Job's, per Cluster), given by
 *     the test from the code that builds them.
 *
 *   node scripts/security-rbac.js          # prints the chart table
 *   node scripts/security-rbac.js --write  # rewrites the chart table in SECURITY.md
 */
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const root = path.resolve(__dirname, '..');
const SECURITY_MD = path.join(root, 'SECURITY.md');
const RBAC_DIR = path.join(root, 'deploy', 'rbac');

const list = value =>
  value && value.length ? [...value].sort().join(', ') : '';

/** The manifests of deploy/rbac, every document of every file. */
function rbacManifests(dir = RBAC_DIR) {
  return fs
    .readdirSync(dir)
    .filter(f => f.endsWith('.yaml'))
    .sort()
    .flatMap(f =>
      YAML.parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8'))
        .map(d => d.toJS())
        .filter(Boolean),
    );
}

/**
 * One row per (who, where, rule): who is each subject of a binding (or, for a ClusterRole no
 * binding of the set names, the ClusterRole itself, to be bound by the installer), where is the
 * namespace of a Role's binding or "cluster-wide".
 */
function grantRows(manifests) {
  const roles = new Map();
  for (const m of manifests) {
    if (m.kind === 'Role' || m.kind === 'ClusterRole') {
      const ns = m.kind === 'Role' ? m.metadata.namespace : '';
      roles.set(`${m.kind}/${ns}/${m.metadata.name}`, m);
    }
  }
  const rows = [];
  const bound = new Set();
  const addRules = (who, where, role) => {
    for (const rule of role.rules ?? []) {
      rows.push({
        who,
        where,
        apiGroups: list((rule.apiGroups ?? []).map(g => g || 'core')),
        resources: list(rule.resources),
        resourceNames: list(rule.resourceNames),
        verbs: list(rule.verbs),
      });
    }
  };
  for (const m of manifests) {
    if (m.kind !== 'RoleBinding' && m.kind !== 'ClusterRoleBinding') continue;
    const ns = m.kind === 'RoleBinding' ? m.metadata.namespace : '';
    const ref = m.roleRef;
    const key =
      ref.kind === 'Role'
        ? `Role/${ns}/${ref.name}`
        : `ClusterRole//${ref.name}`;
    const role = roles.get(key);
    if (!role)
      throw new Error(
        `${m.kind} ${m.metadata.name} names ${key}, which deploy/rbac does not hold`,
      );
    bound.add(key);
    for (const s of m.subjects ?? []) {
      const who =
        s.kind === 'ServiceAccount'
          ? `ServiceAccount ${s.namespace ?? ns}/${s.name}`
          : `${s.kind} ${s.name}`;
      addRules(who, ns || 'cluster-wide', role);
    }
  }
  for (const [key, role] of roles) {
    if (bound.has(key)) continue;
    addRules(
      `${role.kind} ${role.metadata.name} (unbound)`,
      role.metadata.namespace || 'cluster-wide',
      role,
    );
  }
  return rows.sort((a, b) =>
    JSON.stringify(Object.values(a)).localeCompare(
      JSON.stringify(Object.values(b)),
    ),
  );
}

function renderTable(rows) {
  const head =
    '| Who | Where | API groups | Resources | Only these names | Verbs |\n|---|---|---|---|---|---|';
  const body = rows.map(
    // in backticks: names such as tofu-<cluster> would otherwise read as HTML tags
    r =>
      `| \`${r.who}\` | ${r.where} | ${r.apiGroups} | ${r.resources} | ${
        r.resourceNames ? `\`${r.resourceNames}\`` : 'any'
      } | ${r.verbs} |`,
  );
  return [head, ...body].join('\n');
}

const markers = name => [
  `<!-- rbac-${name}:start -->`,
  `<!-- rbac-${name}:end -->`,
];

/** A table's rows as trimmed cells joined by " | ", without the separator line: prettier pads cells. */
function normalizeTable(table) {
  return table
    .split('\n')
    .map(line => line.trim())
    .filter(line => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map(line =>
      line
        .slice(1, -1)
        .split('|')
        .map(cell => cell.trim())
        .join(' | '),
    )
    .join('\n');
}

/** The table between the named markers of SECURITY.md, normalized (normalizeTable). */
function tableIn(markdown, name) {
  const [start, end] = markers(name);
  const a = markdown.indexOf(start);
  const b = markdown.indexOf(end);
  if (a < 0 || b < a) return undefined;
  return normalizeTable(markdown.slice(a + start.length, b));
}

function replaceTable(markdown, name, table) {
  const [start, end] = markers(name);
  const a = markdown.indexOf(start);
  const b = markdown.indexOf(end);
  if (a < 0 || b < a) throw new Error(`SECURITY.md has no ${start} ... ${end}`);
  return `${markdown.slice(0, a + start.length)}\n${table}\n${markdown.slice(
    b,
  )}`;
}

module.exports = {
  rbacManifests,
  grantRows,
  renderTable,
  normalizeTable,
  tableIn,
  replaceTable,
  SECURITY_MD,
};

if (require.main === module) {
  const table = renderTable(grantRows(rbacManifests()));
  if (process.argv.includes('--write')) {
    const md = fs.readFileSync(SECURITY_MD, 'utf8');
    fs.writeFileSync(SECURITY_MD, replaceTable(md, 'chart', table));
    // the repository's markdown is prettier's (it pads the table's cells)
    require('node:child_process').spawnSync(
      path.join(root, 'node_modules', '.bin', 'prettier'),
      ['--write', SECURITY_MD],
      { stdio: 'inherit' },
    );
  } else {
    console.log(table);
  }
}
