#!/usr/bin/env node
/*
 * Runs the READMEs' runnable commands, so that a README naming a file, flag or script that no longer
 * exists fails a test (packages/backend/src/readmeCommands.test.ts) instead of a reader.
 *
 * A block is runnable when the marker (a Markdown comment, not shown) comes just before its fence, blank
 * lines aside:
 *
 *   <!-- runnable -->            or   <!-- runnable timeout=120 -->  (seconds; default 60)
 *   ```sh
 *   cd plugins/infrared-backend
 *   CI=true npx backstage-cli package test src/clusters/plan/cluster.test.ts
 *   ```
 *
 * The block runs as one `bash -eo pipefail` script from the repository's root (as the READMEs write
 * commands: `cd plugins/<pkg>` first when needed), with the environment of the caller and CI=true. It
 * fails on an exit other than 0, on its timeout, and when jest says "No tests found" (backstage-cli
 * passes --passWithNoTests, so a test command naming a file that is gone would exit 0). Mark
 * only commands that are quick, need no network and leave nothing behind: no `npm start`, no
 * `devenv up`, no writes outside test-results/.
 *
 *   node scripts/readme-commands.js          # run every runnable block, print each result
 *   node scripts/readme-commands.js --list   # only list them
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const MARKER = /^\s*<!--\s*runnable(?:\s+timeout=(\d+))?\s*-->\s*$/;
const FENCE_OPEN = /^\s*```(sh|bash)\s*$/;
const FENCE_CLOSE = /^\s*```\s*$/;
const DEFAULT_TIMEOUT_S = 60;
const NO_TESTS = /^No tests found, exiting with code 0/m;

/** Every README.md of the repository that git knows (tracked or new), node_modules left out. */
function readmes() {
  const res = spawnSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '*README.md'],
    { cwd: root, encoding: 'utf8' },
  );
  if (res.status !== 0) throw new Error(`git ls-files: ${res.stderr}`);
  return res.stdout
    .split('\n')
    .filter(
      f =>
        f && !f.includes('node_modules/') && fs.existsSync(path.join(root, f)),
    )
    .sort();
}

/**
 * The runnable blocks of one README's text: { file, line (of the first command, 1-based), script,
 * timeoutSeconds }. A marker not followed by a ```sh or ```bash block, or a block never closed, is
 * an error: a marker that runs nothing would hide what it was meant to check.
 */
function runnableBlocks(file, text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]);
    if (!marker) continue;
    // prettier puts a blank line after an HTML comment: blank lines may come before the fence
    let fence = i + 1;
    while (fence < lines.length && !lines[fence].trim()) fence++;
    if (!FENCE_OPEN.test(lines[fence] ?? '')) {
      throw new Error(
        `${file}:${
          i + 1
        }: the runnable marker must be followed by a \`\`\`sh block`,
      );
    }
    const start = fence + 1;
    let end = start;
    while (end < lines.length && !FENCE_CLOSE.test(lines[end])) end++;
    if (end >= lines.length) {
      throw new Error(
        `${file}:${fence + 1}: the runnable block is never closed`,
      );
    }
    const indent = /^\s*/.exec(lines[fence])[0].length;
    blocks.push({
      file,
      line: start + 1,
      script: lines
        .slice(start, end)
        .map(l => l.slice(Math.min(indent, /^\s*/.exec(l)[0].length)))
        .join('\n'),
      timeoutSeconds: Number(marker[1] ?? DEFAULT_TIMEOUT_S),
    });
    i = end;
  }
  return blocks;
}

/** The runnable blocks of every README. */
function allBlocks() {
  return readmes().flatMap(file =>
    runnableBlocks(file, fs.readFileSync(path.join(root, file), 'utf8')),
  );
}

/** The last `max` characters of a command's output, which is where a failure says why. */
function tail(text, max = 4000) {
  return text.length > max ? `...${text.slice(-max)}` : text;
}

/**
 * Runs one block from `cwd` (the repository's root): { ok, status, seconds, output, message }. The
 * message names the README, the line and the command, and carries the output's end.
 */
function runBlock(block, cwd = root) {
  const started = Date.now();
  // coreutils timeout signals the whole process group: jest's workers stop with the command
  const res = spawnSync(
    'timeout',
    [
      '-k',
      '5',
      String(block.timeoutSeconds),
      'bash',
      '-eo',
      'pipefail',
      '-c',
      block.script,
    ],
    {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
      timeout: (block.timeoutSeconds + 15) * 1000,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const seconds = (Date.now() - started) / 1000;
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  const timedOut =
    res.error?.code === 'ETIMEDOUT' || res.status === 124 || res.status === 137;
  // backstage-cli passes --passWithNoTests to jest: a test file that is gone exits 0
  const noTests = NO_TESTS.test(output);
  const ok = !res.error && res.status === 0 && !noTests;
  let why = `exited ${res.status ?? res.signal}`;
  if (timedOut) why = `did not end within ${block.timeoutSeconds} s`;
  else if (res.error) why = `could not run: ${res.error.message}`;
  else if (noTests) why = 'ran no tests (jest found no test file it names)';
  const message = ok
    ? ''
    : [
        `${block.file}:${block.line}: the runnable command ${why}`,
        ...block.script.split('\n').map(l => `  $ ${l}`),
        tail(output),
      ].join('\n');
  return { ok, status: res.status, seconds, output, message };
}

function main() {
  const blocks = allBlocks();
  if (process.argv.includes('--list')) {
    for (const b of blocks) console.log(`${b.file}:${b.line}\n${b.script}\n`);
    return;
  }
  let failed = 0;
  for (const b of blocks) {
    const result = runBlock(b);
    console.log(
      `${result.ok ? 'ok  ' : 'FAIL'} ${b.file}:${
        b.line
      } (${result.seconds.toFixed(1)} s)`,
    );
    if (!result.ok) {
      failed++;
      console.log(result.message);
    }
  }
  console.log(`${blocks.length} runnable blocks, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

module.exports = { allBlocks, readmes, runBlock, runnableBlocks, MARKER };

if (require.main === module) main();
