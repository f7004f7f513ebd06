/*
 * The portal's pages as the browser tests use them: sign-in, the Clusters page, a cluster's panel,
 * the register form and removal. One copy for every e2e/*.e2e.js file.
 */
const fs = require('node:fs');

const row = (page, name) => page.getByTestId(`cluster-row-${name}`);

/**
 * The portal's guest sign-in page, when it shows one. Its guest session request fails now and then
 * on a busy machine ("You cannot sign in as a guest ..."); the page stays, and Enter is clicked again.
 */
async function signInIfAsked(page) {
  const enter = page.getByRole('button', { name: 'Enter' });
  const home = page.getByRole('link', { name: 'Clusters' }).first();
  for (let attempt = 1; ; attempt++) {
    await Promise.race([enter.waitFor(), home.waitFor()]);
    if (!(await enter.isVisible())) break;
    await enter.click();
    try {
      await home.waitFor({ timeout: 10_000 });
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
  await home.waitFor();
}

/** Opens the portal (signing in when asked) unless it is open already. */
async function openPortal(t) {
  if (!(await t.page.getByRole('link', { name: 'Clusters' }).count())) {
    await t.page.goto(`${t.baseUrl}/`);
    await signInIfAsked(t.page);
  }
}

/**
 * Types `text` into the Clusters page's search box and waits for the backend's answer to it (the
 * page asks once the typing pauses, with `search` in the query) and the frame after it.
 */
async function searchClusters(page, text) {
  const box = page.getByLabel('Filter clusters');
  if ((await box.inputValue()) === text) return;
  const answered = page.waitForResponse(
    r => {
      const url = new URL(r.url());
      return (
        url.pathname.endsWith('/api/infrared/v1/clusters') &&
        url.searchParams.get('limit') !== '1' &&
        (url.searchParams.get('search') ?? '') === text.trim()
      );
    },
    { timeout: 30_000 },
  );
  await box.fill(text);
  await answered;
  await page.evaluate(
    () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0))),
  );
}

/** The Clusters page from the nav; with `filter`, the table searched for that text. */
async function openClusters(t, filter) {
  await openPortal(t);
  await t.page.getByRole('link', { name: 'Clusters' }).first().click();
  await t.page.getByTestId('cluster-count').waitFor({ timeout: 30_000 });
  if (filter) await searchClusters(t.page, filter);
}

/** The cluster's panel, opened from its row unless it is open. */
async function openPanel(page, name) {
  const panel = page.getByRole('region', { name: `Cluster ${name}` });
  if (!(await panel.isVisible())) {
    await page.getByRole('button', { name: `Open cluster ${name}` }).click();
  }
  await panel.waitFor();
  return panel;
}

/** The register form's dialog, opened from the page's button. */
async function openRegisterForm(page) {
  await page
    .getByRole('button', { name: 'Register a workload cluster' })
    .click();
  const dialog = page.getByRole('dialog', {
    name: 'Register a workload cluster',
  });
  await dialog.waitFor();
  return dialog;
}

/**
 * The demo workload cluster registered through the register form unless its row is there, then
 * Registered True in the table.
 */
async function ensureRegistered(t) {
  await openClusters(t, t.clusterName);
  if (!(await row(t.page, t.clusterName).count())) {
    t.expect(
      fs.existsSync(t.kubeconfigPath),
      `no kubeconfig at ${t.kubeconfigPath}: is the local control plane up?`,
    );
    const dialog = await openRegisterForm(t.page);
    await dialog.getByRole('textbox', { name: 'Name' }).fill(t.clusterName);
    await dialog
      .getByRole('textbox', { name: 'Kubeconfig' })
      .fill(fs.readFileSync(t.kubeconfigPath, 'utf8'));
    await dialog.getByTestId('kubeconfig-summary').waitFor();
    await dialog.getByRole('button', { name: 'Register' }).click();
    await dialog
      .getByText(/^Registered\. Argo CD server/)
      .waitFor({ timeout: t.registrationTimeoutMs });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
  await row(t.page, t.clusterName)
    .getByLabel(/^Registered: True/)
    .waitFor({ timeout: t.registrationTimeoutMs });
}

/** Removes a cluster through its panel and waits until its row is gone; nothing when it is not listed. */
async function removeIfThere(page, name) {
  if (!(await row(page, name).count())) return;
  const panel = await openPanel(page, name);
  await panel.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: `Remove cluster ${name}?` });
  await confirm.getByRole('button', { name: 'Remove cluster' }).click();
  await row(page, name).waitFor({ state: 'detached', timeout: 30_000 });
}

/** Navigates within the signed-in app (as a link does), not a reload that signs in again. */
async function navigateInApp(page, to) {
  await page.evaluate(target => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

/** The server line of the kubeconfig's (only or first) cluster. */
function kubeconfigServer(text) {
  const m = text.match(/^\s*server:\s*(\S+)\s*$/m);
  return m ? m[1].replace(/\/+$/, '') : undefined;
}

module.exports = {
  row,
  signInIfAsked,
  openPortal,
  openClusters,
  searchClusters,
  openPanel,
  openRegisterForm,
  ensureRegistered,
  removeIfThere,
  navigateInApp,
  kubeconfigServer,
};
