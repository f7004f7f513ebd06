/*
 * The Clusters page end to end: open it, refuse an exec kubeconfig with its reason, register the
 * demo workload cluster by pasting its kubeconfig, see Connected and Registered turn True with the
 * Argo CD server and the gitops path, remove it and see it gone.
 */
const fs = require('node:fs');
const {
  kubeconfigServer,
  openRegisterForm,
  openClusters,
  row,
  searchClusters,
  signInIfAsked,
} = require('./portal');

const EXEC_KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: eks
  cluster:
    server: https://ABCDEF.gr7.us-east-1.eks.amazonaws.com
    certificate-authority-data: Q0EtUEVN
users:
- name: eks-user
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: aws
      args: [eks, get-token, --cluster-name, prod]
contexts:
- name: eks
  context: {cluster: eks, user: eks-user}
current-context: eks
`;

/**
 * The types in the table, reloading while the management cluster is not yet among them: the
 * backend makes its Cluster on its first reconcile pass, which a loaded machine may run after the
 * registrar has already listed the demo child. Bounded: 20 reloads over about a minute.
 */
async function typesOnceManagementListed(t) {
  const rows = t.page.locator('[data-testid^="cluster-row-"]');
  let types = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    if (attempt > 0) {
      await new Promise(r => setTimeout(r, 3000));
      await t.page.reload();
      await t.page.getByTestId('cluster-count').waitFor({ timeout: 30_000 });
    }
    await rows.first().waitFor();
    types = await rows.locator('td:nth-child(2)').allInnerTexts();
    if (types.includes('management')) break;
  }
  return types;
}

/** Removes a cluster through its panel; returns the confirmation dialog's text. */
async function removeThroughPanel(page, name) {
  await page.getByRole('button', { name: `Open cluster ${name}` }).click();
  const panel = page.getByRole('region', { name: `Cluster ${name}` });
  await panel.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: `Remove cluster ${name}?` });
  await confirm.waitFor();
  return { panel, confirm, text: await confirm.innerText() };
}

module.exports = {
  title: 'Clusters page',
  steps: [
    {
      name: 'opens the portal (its first load waits for the dev server, which may be rebuilding)',
      async run(t) {
        // a loaded machine (several engineers' tests at once) takes more than 15 s per page load
        t.page.setDefaultNavigationTimeout(120_000);
        await t.page.goto(`${t.baseUrl}/`, { timeout: 180_000 });
        // the backend answers /health before its guest sign-in does, on a loaded machine
        const backend = new URL(t.baseUrl);
        backend.port = '7007';
        let status = 0;
        for (let i = 0; i < 60 && status !== 200; i++) {
          if (i) await new Promise(r => setTimeout(r, 2000));
          status = await fetch(
            `${backend.origin}/api/auth/guest/refresh?env=development`,
            { headers: { 'X-Requested-With': 'XMLHttpRequest' } },
          ).then(
            r => r.status,
            () => 0,
          );
        }
        t.expect(status === 200, `guest sign-in answers ${status}`);
      },
    },
    {
      name: 'lands on the Clusters page at /, not on a 404',
      async run(t) {
        await t.page.goto(`${t.baseUrl}/`);
        await signInIfAsked(t.page);
        await t.page.getByTestId('cluster-count').waitFor({ timeout: 30_000 });
        const path = new URL(t.page.url()).pathname;
        t.expect(path === '/clusters', `/ led to ${path}`);
      },
    },
    {
      name: 'opens Clusters from the nav and lists the management cluster',
      async run(t) {
        await openClusters(t);
        const count = await t.page.getByTestId('cluster-count').innerText();
        t.expect(/\d+ clusters/.test(count), `cluster count reads "${count}"`);
        const types = await typesOnceManagementListed(t);
        t.expect(
          types.includes('management'),
          `no management cluster among types ${types.join(', ')}`,
        );
        // Left over from an interrupted run: remove it so the story starts clean.
        if (await row(t.page, t.clusterName).count()) {
          const { confirm } = await removeThroughPanel(t.page, t.clusterName);
          await confirm.getByRole('button', { name: 'Remove cluster' }).click();
          await row(t.page, t.clusterName).waitFor({
            state: 'detached',
            timeout: 30_000,
          });
        }
        await t.screenshot('clusters');
      },
    },
    {
      name: 'refuses an exec kubeconfig and says why',
      async run(t) {
        const dialog = await openRegisterForm(t.page);
        await dialog.getByRole('textbox', { name: 'Name' }).fill('e2e-exec');
        await dialog
          .getByRole('textbox', { name: 'Kubeconfig' })
          .fill(EXEC_KUBECONFIG);
        const errors = dialog.getByTestId('kubeconfig-errors');
        await errors.waitFor();
        const text = await errors.innerText();
        t.expect(
          text.includes(
            'exec credential plugins ("aws") are refused because Argo CD needs a credential it can store',
          ),
          `refusal reads: ${text}`,
        );
        t.expect(
          await dialog.getByRole('button', { name: 'Register' }).isDisabled(),
          'Register is enabled',
        );
        await errors.scrollIntoViewIfNeeded();
        await t.screenshot('exec-refused');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
      },
    },
    {
      name: 'registers the demo workload cluster by pasting its kubeconfig',
      async run(t) {
        t.expect(
          fs.existsSync(t.kubeconfigPath),
          `no kubeconfig at ${t.kubeconfigPath}: is the local control plane up?`,
        );
        const kubeconfig = fs.readFileSync(t.kubeconfigPath, 'utf8');
        const server = kubeconfigServer(kubeconfig);
        const dialog = await openRegisterForm(t.page);
        await dialog.getByRole('textbox', { name: 'Name' }).fill(t.clusterName);
        await dialog
          .getByRole('textbox', { name: 'Kubeconfig' })
          .fill(kubeconfig);
        const summary = dialog.getByTestId('kubeconfig-summary');
        await summary.waitFor();
        const said = await summary.innerText();
        t.expect(
          said.includes(`Server: ${server}`),
          `summary "${said}" does not name server ${server}`,
        );
        t.expect(
          /Credential: (bearer token|client certificate and key)/.test(said),
          `summary: ${said}`,
        );
        await summary.scrollIntoViewIfNeeded();
        await t.screenshot('register-form');

        await dialog.getByRole('button', { name: 'Register' }).click();
        await dialog.getByTestId('registration-progress').waitFor();
        await t.screenshot('registering');
        const done = dialog.getByText(/^Registered\. Argo CD server/);
        try {
          await done.waitFor({ timeout: t.registrationTimeoutMs });
        } catch (e) {
          const steps = await dialog
            .getByTestId('registration-progress')
            .innerText();
          throw new Error(
            `not Registered within ${t.registrationTimeoutMs} ms; the dialog says:\n${steps}`,
          );
        }
        const progress = await dialog
          .getByTestId('registration-progress')
          .innerText();
        t.expect(
          progress.includes(`Argo CD server: ${server}`),
          `progress: ${progress}`,
        );
        t.expect(
          progress.includes(`cluster-${t.clusterName}.yaml`),
          `no gitops path in: ${progress}`,
        );
        await t.screenshot('registered');
        await dialog.getByRole('button', { name: 'Close' }).click();
        await dialog.waitFor({ state: 'detached' });
      },
    },
    {
      name: 'shows Connected and Registered True, the Argo CD server and the gitops path in the table',
      async run(t) {
        await searchClusters(t.page, t.clusterName);
        const r = row(t.page, t.clusterName);
        await r.getByLabel(/^Connected: True/).waitFor({ timeout: 30_000 });
        await r.getByLabel(/^Registered: True/).waitFor({ timeout: 30_000 });
        const text = await r.innerText();
        const server = kubeconfigServer(
          fs.readFileSync(t.kubeconfigPath, 'utf8'),
        );
        t.expect(
          text.includes(server),
          `row has no Argo CD server ${server}: ${text}`,
        );
        t.expect(
          new RegExp(
            `registry/clusters/[^/]+/components/cluster-${t.clusterName}\\.yaml`,
          ).test(text.replace(/\/\n/g, '/')),
          `row has no gitops path: ${text}`,
        );
        await t.screenshot('row');
      },
    },
    {
      name: 'fits the table in a 1280x800 window: no horizontal scroll; the columns left out are in the panel',
      async run(t) {
        const { width, height } = t.page.viewportSize();
        t.expect(
          width === 1280 && height === 800,
          `viewport ${width}x${height}`,
        );
        const m = await t.page.evaluate(() => {
          const table = document.querySelector('table[aria-label="Clusters"]');
          const box = table.parentElement; // the TableContainer, which scrolls
          return {
            scrollWidth: box.scrollWidth,
            clientWidth: box.clientWidth,
            pageScroll: document.documentElement.scrollWidth,
            pageWidth: document.documentElement.clientWidth,
            headers: [...table.querySelectorAll('thead th')].map(th =>
              th.innerText.trim(),
            ),
          };
        });
        t.expect(
          m.scrollWidth <= m.clientWidth,
          `the table scrolls sideways: ${m.scrollWidth} px in ${m.clientWidth} px`,
        );
        t.expect(
          m.pageScroll <= m.pageWidth,
          `the page scrolls sideways: ${m.pageScroll} px in ${m.pageWidth} px`,
        );
        for (const h of ['Name', 'Type', 'Argo CD server', 'Gitops path']) {
          t.expect(m.headers.includes(h), `no ${h} column: ${m.headers}`);
        }
        const note = await t.page.getByTestId('hidden-columns').innerText();
        t.expect(/Kubernetes/.test(note), `hidden-columns note: ${note}`);
        await t.page
          .getByRole('button', { name: `Open cluster ${t.clusterName}` })
          .click();
        const panel = t.page.getByRole('region', {
          name: `Cluster ${t.clusterName}`,
        });
        const facts = await panel.innerText();
        t.expect(
          /Kubernetes version\s+v1\./.test(facts),
          `the panel lacks the Kubernetes version: ${facts}`,
        );
        const change = await panel
          .locator('dt:has-text("Change") + dd')
          .innerText();
        t.expect(
          /commit [0-9a-f]{7}\b/.test(change) && !/file:/.test(change),
          `the Change fact reads "${change}" (a commit, no local file URL)`,
        );
        await t.screenshot('laptop-width-panel');
        await panel
          .getByRole('button', { name: 'Close the cluster panel' })
          .click();
        await panel.waitFor({ state: 'detached' });
      },
    },
    {
      name: 'at 1280x800 every gitops path takes at most two lines, and no cluster name or file name is clipped (issue 23.5)',
      async run(t) {
        await searchClusters(t.page, '');
        const rows = t.page.locator('[data-testid^="cluster-row-"]');
        await t.page
          .getByRole('button', { name: `Open cluster ${t.clusterName}` })
          .waitFor();
        t.expect(
          (await rows.count()) >= 2,
          'the table lists fewer than two clusters',
        );
        const m = await t.page.evaluate(() => {
          const table = document.querySelector('table[aria-label="Clusters"]');
          const headers = [...table.querySelectorAll('thead th')].map(th =>
            th.innerText.trim(),
          );
          const col = h => headers.indexOf(h) + 1;
          const cells = h =>
            [...table.querySelectorAll(`tbody td:nth-child(${col(h)})`)].filter(
              td => td.innerText.trim() !== '—',
            );
          // the text lines of a cell: the distinct tops of its text nodes' line boxes
          const lines = td => {
            const tops = new Set();
            const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
              if (!n.textContent.trim()) continue;
              const range = document.createRange();
              range.selectNodeContents(n);
              for (const r of range.getClientRects()) {
                if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top));
              }
            }
            return tops.size;
          };
          const clipped = td =>
            [td, ...td.querySelectorAll('*')].some(
              el =>
                getComputedStyle(el).textOverflow !== 'ellipsis' &&
                el.scrollWidth > el.clientWidth + 1 &&
                el.clientWidth > 0,
            ) || td.scrollWidth > td.clientWidth + 1;
          const paths = cells('Gitops path').map(td => ({
            text: td.innerText.replace(/\n/g, ''),
            lines: lines(td),
            clipped: clipped(td),
          }));
          const names = cells('Name').map(td => ({
            text: td.innerText.split('\n')[0],
            clipped: clipped(td),
          }));
          const box = table.parentElement; // the TableContainer, which scrolls
          const right = box.getBoundingClientRect().right;
          const cut = [
            ...table.querySelectorAll('[data-testid="gitops-path-file"]'),
          ]
            .filter(el => el.getBoundingClientRect().right > right + 1)
            .map(el => el.textContent);
          return {
            paths,
            names,
            cut,
            scrollWidth: box.scrollWidth,
            clientWidth: box.clientWidth,
          };
        });
        console.log(
          `    gitops paths: ${m.paths
            .map(p => `${p.text} ${p.lines} lines`)
            .join(', ')}; names: ${m.names.map(n => n.text).join(', ')}`,
        );
        t.expect(
          m.paths.length > 0,
          'no gitops path in the table: nothing to measure',
        );
        for (const p of m.paths) {
          t.expect(
            p.lines <= 2,
            `the gitops path ${p.text} takes ${p.lines} lines (at most 2)`,
          );
          t.expect(!p.clipped, `the gitops path ${p.text} is clipped`);
        }
        for (const n of m.names) {
          t.expect(!n.clipped, `the cluster name ${n.text} is clipped`);
        }
        t.expect(
          m.scrollWidth <= m.clientWidth && m.cut.length === 0,
          `with every row shown the table is ${m.scrollWidth} px in ${
            m.clientWidth
          } px${m.cut.length ? `, and ${m.cut.join(', ')} is cut` : ''}`,
        );
        await t.screenshot('widths');
      },
    },
    {
      name: 'removes it from its panel, saying what goes and what stays, and it is gone',
      async run(t) {
        const { confirm, text } = await removeThroughPanel(
          t.page,
          t.clusterName,
        );
        for (const expected of [
          `the Cluster ${t.clusterName}`,
          `cluster-${t.clusterName}-kubeconfig in namespace infrared`,
          `cluster-${t.clusterName} in namespace argocd`,
          'app-of-apps file',
          `nothing on ${t.clusterName} is deleted`,
        ]) {
          t.expect(
            text.includes(expected),
            `confirmation lacks "${expected}": ${text}`,
          );
        }
        await t.screenshot('remove-confirm');
        await confirm.getByRole('button', { name: 'Remove cluster' }).click();
        await row(t.page, t.clusterName).waitFor({
          state: 'detached',
          timeout: 30_000,
        });
        // Gone on the server too, not only in this page's list.
        await t.page.reload();
        await t.page.getByTestId('cluster-count').waitFor({ timeout: 30_000 });
        await t.page.waitForTimeout(500);
        t.expect(
          (await row(t.page, t.clusterName).count()) === 0,
          `${t.clusterName} is back after a reload`,
        );
        await t.screenshot('removed');
      },
    },
  ],
};
