/*
 * What bench/ui's scripts share: a fresh browser context (empty cache, remembered guest sign-in)
 * that records when the Clusters table with every cluster is first on screen.
 */

/** Installed before any page script: records when the table with every cluster is first painted. */
function markShown(total) {
  window.__shownAt = undefined;
  const check = () => {
    if (window.__shownAt !== undefined || window.__pending) return;
    const count = document.querySelector('[data-testid="cluster-count"]');
    const row = document.querySelector('[data-testid^="cluster-row-"]');
    if (row && count && count.textContent === `${total} clusters`) {
      window.__pending = true;
      // The frame after the DOM change: when it is on screen.
      requestAnimationFrame(() =>
        setTimeout(() => {
          window.__shownAt = performance.now();
          window.__pending = false;
        }, 0),
      );
    }
  };
  new MutationObserver(check).observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
  });
}

async function waitShown(page) {
  await page.waitForFunction(() => window.__shownAt !== undefined, undefined, {
    timeout: 60_000,
  });
  return page.evaluate(() => window.__shownAt);
}

/** A fresh context (empty HTTP cache) signed in as guest, watching for `total` clusters shown. */
async function newBenchContext(browser, total) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  // Remembered guest sign-in (what the sign-in page stores after "Enter"): no sign-in page.
  await context.addInitScript(() =>
    localStorage.setItem('@backstage/core:SignInPage:provider', 'guest'),
  );
  await context.addInitScript(markShown, total);
  return context;
}

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

module.exports = { newBenchContext, waitShown, median };
