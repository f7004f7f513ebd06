#!/usr/bin/env node
/*
 * The size rule of the code base: no non-test TypeScript file over 400 lines, no function over 80
 * lines, unless scripts/sizes-allowlist.json gives a written reason for it. Reads every .ts/.tsx
 * file under plugins/* and packages/* (tests, test utilities and generated code left out) with
 * the TypeScript compiler's parser.
 *   node scripts/sizes.js          # lists offenders without a reason, and stale reasons; exit 1 if any
 *   node scripts/sizes.js --all    # every file and function over the limits, with its reason
 * packages/backend/src/sourceSizes.test.ts runs it in npm test.
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;
const ALLOWLIST = path.join(__dirname, 'sizes-allowlist.json');

const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'dist-types',
  '__testUtils__',
  '__fixtures__',
  '__mocks__',
]);

/** Test code and generated code are not held to the rule. */
function isChecked(rel) {
  if (!/\.tsx?$/.test(rel)) return false;
  if (/\.(test|spec)\.tsx?$/.test(rel)) return false;
  if (/(^|\/)setupTests\.ts$/.test(rel)) return false;
  if (/\/schema\/openapi\/generated\//.test(rel)) return false;
  return true;
}

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (isChecked(path.relative(ROOT, full).split(path.sep).join('/')))
      out.push(full);
  }
  return out;
}

/** Every checked source file, relative to the repository root, sorted. */
function sourceFiles() {
  const files = [];
  for (const top of ['plugins', 'packages']) {
    const base = path.join(ROOT, top);
    if (!fs.existsSync(base)) continue;
    for (const pkg of fs.readdirSync(base, { withFileTypes: true })) {
      if (pkg.isDirectory()) walk(path.join(base, pkg.name), files);
    }
  }
  return files
    .map(f => path.relative(ROOT, f).split(path.sep).join('/'))
    .sort();
}

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    parent &&
    ts.isVariableDeclaration(parent) &&
    ts.isIdentifier(parent.name)
  )
    return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && parent.name)
    return parent.name.getText();
  if (parent && ts.isPropertyDeclaration(parent) && parent.name)
    return parent.name.getText();
  if (parent && ts.isCallExpression(parent))
    return `${parent.expression.getText().slice(0, 40)}(callback)`;
  return '<anonymous>';
}

const isFunction = node =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node);

/** Functions of one file with their length in lines, named by their nesting (`Class.method`). */
function functionsOf(rel, text) {
  const source = ts.createSourceFile(
    rel,
    text,
    ts.ScriptTarget.Latest,
    true,
    rel.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found = [];
  const visit = (node, scope) => {
    let inner = scope;
    if (ts.isClassDeclaration(node) && node.name) {
      inner = [...scope, node.name.text];
    } else if (isFunction(node) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source));
      const end = source.getLineAndCharacterOfPosition(node.getEnd());
      const name = [...scope, nameOf(node)].join('.');
      found.push({
        name,
        line: start.line + 1,
        lines: end.line - start.line + 1,
      });
      inner = [...scope, nameOf(node)];
    }
    ts.forEachChild(node, child => visit(child, inner));
  };
  visit(source, []);
  return found;
}

const lineCount = text =>
  text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/**
 * Files over MAX_FILE_LINES and functions over MAX_FUNCTION_LINES: `{ key, lines, reason? }`, the
 * key being the file's path, or `path#name` for a function. `stale` lists allowlist keys that are
 * no longer over their limit (or gone).
 */
function checkSizes(allowlist = readAllowlist()) {
  const over = [];
  for (const rel of sourceFiles()) {
    const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
    const lines = lineCount(text);
    if (lines > MAX_FILE_LINES) over.push({ key: rel, lines });
    for (const f of functionsOf(rel, text)) {
      if (f.lines > MAX_FUNCTION_LINES)
        over.push({ key: `${rel}#${f.name}`, lines: f.lines, line: f.line });
    }
  }
  const keys = new Set(over.map(o => o.key));
  for (const o of over) o.reason = allowlist[o.key];
  return {
    over,
    offenders: over.filter(o => !o.reason),
    stale: Object.keys(allowlist).filter(k => !keys.has(k)),
  };
}

/** Allowlist: `{ "<path>" or "<path>#<function>": "<why it stays this long>" }`. */
function readAllowlist() {
  return validAllowlist(JSON.parse(fs.readFileSync(ALLOWLIST, 'utf8')));
}

/** The allowlist's entries; throws for one without a written reason. */
function validAllowlist(json) {
  const out = {};
  for (const [key, reason] of Object.entries(json)) {
    if (key.startsWith('//')) continue;
    if (typeof reason !== 'string' || reason.trim().length < 20) {
      throw new Error(`${ALLOWLIST}: "${key}" needs a written reason`);
    }
    out[key] = reason;
  }
  return out;
}

module.exports = {
  checkSizes,
  validAllowlist,
  functionsOf,
  sourceFiles,
  MAX_FILE_LINES,
  MAX_FUNCTION_LINES,
};

if (require.main === module) {
  const { over, offenders, stale } = checkSizes();
  const shown = process.argv.includes('--all') ? over : offenders;
  for (const o of shown) {
    const limit = o.key.includes('#') ? MAX_FUNCTION_LINES : MAX_FILE_LINES;
    console.log(
      `${o.key}${o.line ? `:${o.line}` : ''}  ${
        o.lines
      } lines (limit ${limit})${o.reason ? `  allowed: ${o.reason}` : ''}`,
    );
  }
  for (const k of stale)
    console.log(
      `${k}  within its limit now: remove it from ${path.basename(ALLOWLIST)}`,
    );
  if (offenders.length || stale.length) process.exitCode = 1;
}
