/*
 * docs/install.md as steps: every fenced block right after a line `<!-- adopt: <action> ... -->` is
 * (blank lines between them allowed) is one step of bench/adopt, in the order of the guide. Actions:
 *
 *   run                      ```sh: run with bash -eo pipefail in the app's root
 *   start                    ```sh: one long-running command (the app and backend); started, not awaited
 *   merge <file>             ```json or ```yaml (by <file>'s extension): deep-merged into the app's file
 *   patch <file>             ```diff: lines ' ' (context), '-' (removed), '+' (added), no @@ headers;
 *                            the context and removed lines must appear exactly once in the file
 *   create <file> [same-as <repository file>]
 *                            any language: a new file; `same-as` names the file of this repository it
 *                            copies (installGuide.test.ts keeps them equal)
 *
 * Paths are relative to the app's root. A marker without a fenced block right after it, an unknown
 * action or a block of the wrong language is an error naming the guide's line.
 */
const fs = require('node:fs');
const path = require('node:path');

/** The create-app release of Backstage 1.55.0 (backstage.json), the app the guide is written for. */
const CREATE_APP = '0.9.2';
const GUIDE = path.join(__dirname, '..', '..', 'docs', 'install.md');
const MARKER = /^<!--\s*adopt:\s*(.*?)\s*-->\s*$/;
const FENCE = /^```(\S*)\s*$/;

const LANGS = {
  run: ['sh'],
  start: ['sh'],
  patch: ['diff'],
};

function mergeLang(file) {
  if (file.endsWith('.json')) return ['json'];
  if (/\.ya?ml$/.test(file)) return ['yaml'];
  return [];
}

function parseMarker(text, line) {
  const words = text.split(/\s+/);
  const [action, file, ...rest] = words;
  const fail = why => {
    throw new Error(`docs/install.md:${line}: <!-- adopt: ${text} -->: ${why}`);
  };
  if (action === 'run' || action === 'start') {
    if (words.length !== 1) fail(`${action} takes no arguments`);
    return { action };
  }
  if (!['merge', 'patch', 'create'].includes(action)) {
    fail('unknown action (run, start, merge, patch, create)');
  }
  if (!file) fail(`${action} needs the file it changes`);
  if (path.isAbsolute(file) || file.split('/').includes('..')) {
    fail(`${file} is not a path inside the app`);
  }
  const step = { action, file };
  if (action === 'create' && rest.length) {
    if (rest[0] !== 'same-as' || rest.length !== 2) {
      fail('create <file> takes only "same-as <repository file>"');
    }
    step.sameAs = rest[1];
  } else if (rest.length) fail(`${action} takes one file`);
  return step;
}

/** The steps of the guide (default docs/install.md), each with its line, action, file and body. */
function parseGuide(text = fs.readFileSync(GUIDE, 'utf8')) {
  const lines = text.split('\n');
  const steps = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]);
    if (!marker) continue;
    const line = i + 1;
    const step = { line, ...parseMarker(marker[1], line) };
    // blank lines may stand between (prettier puts one after an HTML comment)
    let open = i + 1;
    while (open < lines.length && lines[open].trim() === '') open++;
    const fence = FENCE.exec(lines[open] ?? '');
    if (!fence) {
      throw new Error(
        `docs/install.md:${line}: <!-- adopt: ${marker[1]} --> is not followed by a fenced block`,
      );
    }
    const langs =
      step.action === 'merge' ? mergeLang(step.file) : LANGS[step.action];
    if (langs && !langs.includes(fence[1])) {
      throw new Error(
        `docs/install.md:${line}: a ${step.action} block must be \`\`\`${
          langs.join(' or ```') || '(json or yaml file)'
        }, not \`\`\`${fence[1]}`,
      );
    }
    const end = lines.findIndex((l, j) => j > open && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`docs/install.md:${line}: unclosed block`);
    step.lang = fence[1];
    step.body = `${lines.slice(open + 1, end).join('\n')}\n`;
    if (step.action === 'patch') step.hunk = parseHunk(step.body, line);
    steps.push(step);
    i = end;
  }
  return steps;
}

/** A diff block as the text it looks for and the text it puts there. */
function parseHunk(body, line) {
  const before = [];
  const after = [];
  const bodyLines = body.replace(/\n$/, '').split('\n');
  for (const l of bodyLines) {
    const [mark, rest] = [l.slice(0, 1), l.slice(1)];
    if (l === '' || mark === ' ') {
      before.push(rest);
      after.push(rest);
    } else if (mark === '-') before.push(rest);
    else if (mark === '+') after.push(rest);
    else {
      throw new Error(
        `docs/install.md:${line}: a diff line must start with ' ', '-' or '+': ${l}`,
      );
    }
  }
  if (before.join('').trim() === '') {
    throw new Error(`docs/install.md:${line}: a patch needs context lines`);
  }
  if (before.join('\n') === after.join('\n')) {
    throw new Error(`docs/install.md:${line}: the patch changes nothing`);
  }
  return { before: before.join('\n'), after: after.join('\n') };
}

/** Applies a patch step to a file's text; throws unless its lines appear exactly once. */
function applyPatch(source, step) {
  const { before, after } = step.hunk;
  const first = source.indexOf(before);
  if (first < 0 || source.indexOf(before, first + 1) >= 0) {
    throw new Error(
      `docs/install.md:${step.line}: the lines to change in ${
        step.file
      } appear ${first < 0 ? 'nowhere' : 'more than once'} in it`,
    );
  }
  return source.slice(0, first) + after + source.slice(first + before.length);
}

const isObject = v => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep merge: objects key by key, anything else (arrays, scalars, null) replaced. */
function deepMerge(target, addition) {
  if (!isObject(target) || !isObject(addition)) return addition;
  const out = { ...target };
  for (const [key, value] of Object.entries(addition)) {
    out[key] = deepMerge(target[key], value);
  }
  return out;
}

/** Applies a merge step to a file's text (JSON, or YAML through the yaml package). */
function applyMerge(source, step, yaml = require('yaml')) {
  if (step.file.endsWith('.json')) {
    const merged = deepMerge(JSON.parse(source), JSON.parse(step.body));
    return `${JSON.stringify(merged, null, 2)}\n`;
  }
  const doc = yaml.parseDocument(source);
  const block = yaml.parseDocument(step.body);
  const current = doc.toJS() ?? {};
  // only the block's top-level keys change; a new key keeps the block's comments
  for (const [key, value] of Object.entries(block.toJS() ?? {})) {
    if (isObject(current[key])) doc.set(key, deepMerge(current[key], value));
    else doc.set(key, block.get(key, true));
  }
  return doc.toString({ lineWidth: 0 });
}

module.exports = {
  CREATE_APP,
  GUIDE,
  parseGuide,
  applyPatch,
  applyMerge,
  deepMerge,
};
