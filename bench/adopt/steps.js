/*
 * Applies the guide's steps (bench/adopt/guide.js) to the app: run, merge, patch and create act on
 * the app's files or run there; start is bench/adopt/portal.js's.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { applyMerge, applyPatch } = require('./guide');

/** Runs a `run` block with bash -eo pipefail in the app; its output goes to logFile. */
function runBlock(step, { appDir, env, logFile }) {
  const out = fs.openSync(logFile, 'w');
  try {
    const result = spawnSync('bash', ['-eo', 'pipefail', '-c', step.body], {
      cwd: appDir,
      env,
      stdio: ['ignore', out, out],
      timeout: 60 * 60_000,
    });
    if (result.status !== 0) {
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-40);
      throw new Error(
        `docs/install.md:${step.line}: exit ${
          result.status ?? result.signal
        } of\n${step.body}${tail.join('\n')}`,
      );
    }
  } finally {
    fs.closeSync(out);
  }
}

/** merge, patch and create: the app's file changed as the block says. */
function editFile(step, appDir) {
  const file = path.join(appDir, step.file);
  if (step.action === 'create') {
    if (fs.existsSync(file)) {
      throw new Error(`docs/install.md:${step.line}: ${step.file} exists`);
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, step.body);
    return;
  }
  if (!fs.existsSync(file)) {
    throw new Error(
      `docs/install.md:${step.line}: the app has no ${step.file} to ${step.action}`,
    );
  }
  const source = fs.readFileSync(file, 'utf8');
  const changed =
    step.action === 'patch'
      ? applyPatch(source, step)
      : applyMerge(source, step);
  fs.writeFileSync(file, changed);
}

/** One step that is not `start`. */
function applyStep(step, context) {
  if (step.action === 'run') runBlock(step, context);
  else editFile(step, context.appDir);
}

module.exports = { applyStep };
