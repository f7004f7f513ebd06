#!/usr/bin/env node
/*
 * bench/ui compare: two builds of the app, cold loads interleaved (A B, B A, A B, ...), so the
 * machine's drift falls on both alike. Prints each build's median time until 1,000 clusters are
 * shown, when the list request started, and the median of the per-pair differences.
 *
 *   node bench/ui/build.js && cp -r bench/ui/.cache/app/dist /tmp/before
 *   (change something) node bench/ui/build.js && cp -r bench/ui/.cache/app/dist /tmp/after
 *   node bench/ui/compare.js /tmp/before /tmp/after [--pairs 12] [--clusters 1000]
 */
const { chromium } = require('playwright-core');
const { createFakePortal, generateClusters } = require('./fakePortal');
const { newBenchContext, waitShown, median } = require('./measure');
const { CHROMIUM_FLAGS } = require('../../e2e/chromium');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const [dirA, dirB] = process.argv.slice(2).filter(a => !a.startsWith('--'));
const PAIRS = Number(arg('pairs', 12));
const CLUSTERS = Number(arg('clusters', 1000));
// Both builds have the bench's base URL baked in: each is served on that port in turn.
const PORT = Number(process.env.BENCH_UI_PORT ?? 17000);

async function coldLoad(browser, distDir, clusters) {
  const portal = await createFakePortal({ distDir, port: PORT, clusters });
  const context = await newBenchContext(browser, clusters.length);
  try {
    const page = await context.newPage();
    await page.goto(`${portal.url}/clusters`);
    const shown = await waitShown(page);
    const requestStart = await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .find(e => e.name.endsWith('/api/infrared/v1/clusters'))?.startTime,
    );
    return { shown, requestStart };
  } finally {
    await context.close();
    await portal.close();
  }
}

async function main() {
  if (!dirA || !dirB) {
    console.error(
      'usage: node bench/ui/compare.js <distA> <distB> [--pairs N]',
    );
    process.exit(2);
  }
  const clusters = generateClusters(CLUSTERS);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    headless: true,
  });
  const runs = { A: [], B: [] };
  try {
    for (let i = 0; i < PAIRS; i++) {
      const order = i % 2 ? ['B', 'A'] : ['A', 'B'];
      for (const key of order) {
        runs[key].push(
          await coldLoad(browser, key === 'A' ? dirA : dirB, clusters),
        );
      }
    }
  } finally {
    await browser.close();
  }
  const ms = x => `${Math.round(x)} ms`;
  for (const key of ['A', 'B']) {
    console.log(
      `${key} ${key === 'A' ? dirA : dirB}: shown ${ms(
        median(runs[key].map(r => r.shown)),
      )}, list request at ${ms(median(runs[key].map(r => r.requestStart)))}`,
    );
  }
  const diffs = runs.A.map((a, i) => runs.B[i].shown - a.shown);
  console.log(
    `B - A, median of ${PAIRS} pairs: ${ms(median(diffs))} (pairs: ${diffs
      .map(Math.round)
      .join(' ')})`,
  );
}

main().catch(e => {
  console.error(e);
  process.exit(2);
});
