/*
 * A small sequential runner for the browser tests: playwright-core driving Debian's Chromium.
 * Each *.e2e.js file exports { title, steps: [{ name, run(t) }] }. Steps of a file run in order in
 * one page and depend on each other: after a failure the file's remaining steps are skipped.
 */
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const { CHROMIUM_FLAGS: FLAGS } = require('./chromium');

class AssertionError extends Error {}

function expect(condition, message) {
  if (!condition) throw new AssertionError(message);
}

async function runFile(browser, file, options) {
  const spec = require(file);
  const results = [];
  // A fresh context per file: its own profile state (cookies, storage), nothing shared.
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  // Every answer of the Infrared API the pages got, for npm test's leak scan.
  const answers = path.join(options.screenshotDir, 'api-responses.txt');
  page.on('response', async res => {
    if (!res.url().includes('/api/infrared/')) return;
    const body = await res.text().catch(() => '');
    fs.appendFileSync(answers, `${res.status()} ${res.url()}\n${body}\n`);
  });
  let shot = 0;
  const t = {
    page,
    expect,
    ...options,
    /** A small JPEG of the viewport: test-results/e2e/<file>-NN-<name>.jpg */
    async screenshot(name) {
      shot += 1;
      await page.waitForTimeout(300); // let MUI's dialog and drawer transitions finish
      const base = path.basename(file, '.e2e.js');
      const target = path.join(
        options.screenshotDir,
        `${base}-${String(shot).padStart(2, '0')}-${name}.jpg`,
      );
      await page.screenshot({ path: target, type: 'jpeg', quality: 60 });
      return target;
    },
    /** The page's HTML after a step, for npm test's leak scan: test-results/e2e/<file>-step-NN.html */
    async savePage(index) {
      const base = path.basename(file, '.e2e.js');
      const target = path.join(
        options.screenshotDir,
        `${base}-step-${String(index).padStart(2, '0')}.html`,
      );
      fs.writeFileSync(target, await page.content());
    },
  };
  let failed = false;
  for (const [index, step] of spec.steps.entries()) {
    if (failed) {
      results.push({ name: step.name, status: 'skipped' });
      console.log(`  - ${step.name} (skipped)`);
      continue;
    }
    const started = Date.now();
    try {
      await step.run(t);
      results.push({
        name: step.name,
        status: 'passed',
        ms: Date.now() - started,
      });
      console.log(`  ✓ ${step.name} (${Date.now() - started} ms)`);
    } catch (e) {
      failed = true;
      results.push({
        name: step.name,
        status: 'failed',
        error: String(e?.message ?? e),
      });
      console.log(
        `  ✗ ${step.name}\n    ${String(e?.stack ?? e)
          .split('\n')
          .slice(0, 6)
          .join('\n    ')}`,
      );
      try {
        await t.screenshot(
          `failed-${step.name
            .replace(/[^a-z0-9]+/gi, '-')
            .toLowerCase()
            .slice(0, 40)}`,
        );
      } catch {
        /* the page is gone */
      }
      if (errors.length)
        console.log(`    page errors: ${errors.slice(-3).join(' | ')}`);
    }
    await t.savePage(index + 1).catch(() => undefined);
  }
  await context.close();
  return results;
}

async function runAll({ files, chromiumPath, ...options }) {
  fs.mkdirSync(options.screenshotDir, { recursive: true });
  // Only this run's screenshots: one left from an earlier failure would read as this run's.
  for (const old of fs.readdirSync(options.screenshotDir)) {
    if (/\.(jpg|html)$/.test(old) || old === 'api-responses.txt')
      fs.rmSync(path.join(options.screenshotDir, old));
  }
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: FLAGS,
    headless: true,
  });
  const all = [];
  try {
    for (const file of files) {
      const spec = require(file);
      console.log(`${spec.title} (${path.basename(file)})`);
      all.push(...(await runFile(browser, file, options)));
    }
  } finally {
    await browser.close();
  }
  return all;
}

module.exports = { runAll, expect };
