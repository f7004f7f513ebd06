#!/usr/bin/env node
/*
 * Where one cold load of the Clusters page spends its time: every request (documents, scripts,
 * the sign-in, permission checks, the list) and every long task (> 50 ms of script on the main
 * thread) in order, in ms since the navigation started, until the table is shown.
 *   node bench/ui/timeline.js [--clusters 10] [--runs 1]   (the fake portal; build.js first)
 * bench/ui/scale.js --timeline prints the same against the real backend.
 */
const os = require('node:os');
const { newBenchContext, waitShown } = require('./measure');

/** Installed before any page script: keeps the long tasks (Chromium does not buffer them). */
function recordLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver(list => {
    for (const e of list.getEntries())
      window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask' });
}

/** One cold load's requests, long tasks and paints, in order of start. */
async function coldLoadTimeline(browser, url, total) {
  const context = await newBenchContext(browser, total);
  await context.addInitScript(recordLongTasks);
  const page = await context.newPage();
  await page.goto(`${url}/clusters`);
  const shown = await waitShown(page);
  const events = await page.evaluate(() => {
    const origin = location.origin;
    const short = name => name.replace(origin, '').replace(/\?.*$/, '?…');
    const rows = performance.getEntriesByType('resource').map(e => ({
      start: e.startTime,
      end: e.responseEnd,
      what: `${e.initiatorType} ${short(e.name)} (${Math.round(
        e.encodedBodySize / 1024,
      )} KiB${
        e.responseStart
          ? `, first byte +${Math.round(e.responseStart - e.startTime)} ms`
          : ''
      })`,
    }));
    const nav = performance.getEntriesByType('navigation')[0];
    rows.push({ start: 0, end: nav.responseEnd, what: 'document' });
    for (const p of performance.getEntriesByType('paint'))
      rows.push({ start: p.startTime, end: p.startTime, what: p.name });
    for (const t of window.__longTasks)
      rows.push({
        start: t.start,
        end: t.start + t.duration,
        what: 'long task (script on the main thread)',
      });
    return rows;
  });
  await context.close();
  events.push({ start: shown, end: shown, what: 'SHOWN: rows and total' });
  return events.sort((a, b) => a.start - b.start);
}

function printTimeline(title, events) {
  console.log(`${title} (load average ${os.loadavg()[0].toFixed(1)})`);
  for (const e of events) {
    const span = e.end > e.start ? `${Math.round(e.end - e.start)} ms` : '';
    console.log(
      `  ${String(Math.round(e.start)).padStart(5)} ms ${span.padStart(8)}  ${
        e.what
      }`,
    );
  }
}

async function main() {
  const { chromium } = require('playwright-core');
  const { distDir } = require('./build');
  const { createFakePortal, generateClusters } = require('./fakePortal');
  const { CHROMIUM_FLAGS } = require('../../e2e/chromium');
  const flag = (name, def) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : def;
  };
  const n = flag('clusters', 10);
  const portal = await createFakePortal({
    distDir,
    clusters: generateClusters(n),
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    headless: true,
  });
  try {
    for (let run = 0; run < flag('runs', 1); run++) {
      const events = await coldLoadTimeline(browser, portal.url, n);
      printTimeline(`cold load, fake portal, ${n} clusters`, events);
    }
  } finally {
    await browser.close();
    await portal.close();
  }
}

module.exports = { coldLoadTimeline, printTimeline };

if (require.main === module) {
  main().catch(e => {
    console.error(e);
    process.exitCode = 1;
  });
}
