#!/usr/bin/env node
/*
 * bench/placement card: how long after the entity page the Product zone-placement card shows, in
 * Debian's Chromium against a running portal (`npm start`, with devenv's demo data: the catalog
 * Component checkout annotated infrared.darkshift.io/product: ir-org-acme/checkout).
 *   node bench/placement/card.js [--runs 7] [--cold 3] [--entity checkout]   (E2E_BASE_URL, CHROMIUM_PATH)
 * Each run goes from the catalog to the entity page in a warm, signed-in tab (an in-app navigation,
 * as a user clicks through the catalog) and records, from the navigation, when the entity page's header is painted
 * and when the card's zone rows are. Prints each run and the median of the difference, against
 * the anchor (at most 500 ms). Then `--cold` runs open the entity page's address in a new tab
 * (empty cache) and print the same difference.
 */
const path = require('node:path');
const { chromium } = require('playwright-core');
const { CHROMIUM_FLAGS } = require('../../e2e/chromium');

const ANCHOR_MS = 500;

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

/** Installed in the page: records when the entity header and the card's rows are first painted. */
function markPainted(entity) {
  const marks = {};
  window.__placementMarks = marks;
  const painted = (key, present) => {
    if (marks[key] !== undefined || marks[`${key}Pending`] || !present) return;
    marks[`${key}Pending`] = true;
    requestAnimationFrame(() =>
      setTimeout(() => {
        marks[key] = performance.now();
      }, 0),
    );
  };
  new MutationObserver(() => {
    if (!location.pathname.endsWith(`/component/${entity}`)) return;
    painted(
      'page',
      [...document.querySelectorAll('h1, h2')].some(
        h => h.textContent.trim() === entity,
      ),
    );
    painted('card', !!document.querySelector('[data-testid^="zone-row-"]'));
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

async function main() {
  const runs = Number(arg('runs', 7));
  const coldRuns = Number(arg('cold', 3));
  const coldResults = [];
  const entity = arg('entity', 'checkout');
  const base = (process.env.E2E_BASE_URL || 'http://localhost:3000').replace(
    /\/+$/,
    '',
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    headless: true,
  });
  const results = [];
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
    });
    await context.addInitScript(() =>
      localStorage.setItem('@backstage/core:SignInPage:provider', 'guest'),
    );
    const page = await context.newPage();
    await page.goto(`${base}/catalog`);
    await page.getByRole('link', { name: 'Clusters' }).first().waitFor();
    // Warm: the catalog and the card's code are loaded once, as after a first visit.
    await page.goto(`${base}/catalog/default/component/${entity}`);
    await page.locator('[data-testid^="zone-row-"]').first().waitFor({
      timeout: 60_000,
    });
    const navigate = target =>
      page.evaluate(to => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, target);
    for (let i = 0; i < runs; i++) {
      await navigate('/catalog');
      await page.waitForFunction(
        () => !document.querySelector('[data-testid^="zone-row-"]'),
      );
      await page.waitForTimeout(300);
      await page.evaluate(markPainted, entity);
      const started = await page.evaluate(() => performance.now());
      // An in-app navigation, as a click on the entity in the catalog does.
      await navigate(`/catalog/default/component/${entity}`);
      await page.waitForFunction(
        () =>
          window.__placementMarks.page !== undefined &&
          window.__placementMarks.card !== undefined,
        undefined,
        { timeout: 30_000 },
      );
      const marks = await page.evaluate(() => window.__placementMarks);
      const r = {
        page: Math.round(marks.page - started),
        card: Math.round(marks.card - started),
      };
      r.after = r.card - r.page;
      results.push(r);
      console.log(
        `  run ${i + 1}: entity page ${r.page} ms, card ${
          r.card
        } ms, card after page ${r.after} ms`,
      );
    }
    // Cold: a new tab (empty cache) opening the entity page's address directly.
    for (let i = 0; i < coldRuns; i++) {
      const cold = await browser.newContext({
        viewport: { width: 1280, height: 800 },
      });
      await cold.addInitScript(() =>
        localStorage.setItem('@backstage/core:SignInPage:provider', 'guest'),
      );
      await cold.addInitScript(markPainted, entity);
      const tab = await cold.newPage();
      await tab.goto(`${base}/catalog/default/component/${entity}`);
      await tab.waitForFunction(
        () =>
          window.__placementMarks.page !== undefined &&
          window.__placementMarks.card !== undefined,
        undefined,
        { timeout: 60_000 },
      );
      const marks = await tab.evaluate(() => window.__placementMarks);
      const r = { page: Math.round(marks.page), card: Math.round(marks.card) };
      r.after = r.card - r.page;
      coldResults.push(r);
      console.log(
        `  cold ${i + 1}: entity page ${r.page} ms, card ${
          r.card
        } ms after navigation start, card after page ${r.after} ms`,
      );
      await cold.close();
    }
  } finally {
    await browser.close();
  }
  if (coldResults.length) {
    const colds = coldResults.map(r => r.after).sort((a, b) => a - b);
    console.log(
      `cold load, card after the entity page: median ${
        colds[Math.floor(colds.length / 2)]
      } ms over ${colds.length} runs`,
    );
  }
  const afters = results.map(r => r.after).sort((a, b) => a - b);
  const median = afters[Math.floor(afters.length / 2)];
  console.log(
    `card after the entity page: median ${median} ms over ${runs} runs (min ${
      afters[0]
    }, max ${afters[afters.length - 1]}); anchor <= ${ANCHOR_MS} ms, ratio ${(
      median / ANCHOR_MS
    ).toFixed(2)}`,
  );
  if (median > ANCHOR_MS) process.exitCode = 1;
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});

module.exports = { markPainted, root: path.resolve(__dirname, '../..') };
