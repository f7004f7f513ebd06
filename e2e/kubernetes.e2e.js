/*
 * The Kubernetes tab of a catalog entity, end to end: edge-demo is registered (through the Clusters
 * page, unless it already is), a Deployment labelled backstage.io/kubernetes-id=edge-hello is created
 * on edge-demo with the e2e's kubeconfig (loopback only), and the edge-hello Component's Kubernetes
 * tab shows it on edge-demo: the Kubernetes plugin got the cluster from
 * @infrared-clusters/plugin-kubernetes-backend-module-infrared, not from config. The Deployment is
 * deleted and the cluster removed at the end.
 */
const fs = require('node:fs');
const {
  ensureRegistered,
  navigateInApp,
  openClusters,
  removeIfThere,
  signInIfAsked,
} = require('./portal');

const ENTITY = process.env.E2E_K8S_ENTITY || 'edge-hello';
const NAMESPACE = 'default';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** The AppsV1 API of edge-demo through the e2e's kubeconfig; refuses anything but a loopback server. */
async function appsApi(t) {
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  kc.loadFromString(fs.readFileSync(t.kubeconfigPath, 'utf8'));
  const server = new URL(kc.getCurrentCluster().server);
  t.expect(
    LOOPBACK.has(server.hostname),
    `the e2e's kubeconfig names ${server.host}: only a loopback API server is used`,
  );
  return kc.makeApiClient(k8s.AppsV1Api);
}

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: ENTITY,
    labels: { 'backstage.io/kubernetes-id': ENTITY },
  },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: ENTITY } },
    template: {
      metadata: {
        labels: { app: ENTITY, 'backstage.io/kubernetes-id': ENTITY },
      },
      spec: { containers: [{ name: 'hello', image: 'nginx:1.27' }] },
    },
  },
};

const notFound = e => e?.code === 404 || /HTTP-Code: 404/.test(String(e));
const exists = e => e?.code === 409 || /HTTP-Code: 409/.test(String(e));

module.exports = {
  title: 'Kubernetes tab',
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
        await t.page.reload();
        await signInIfAsked(t.page);
      },
    },
    {
      name: 'has the demo cluster registered (registers it when it is not there)',
      async run(t) {
        await ensureRegistered(t);
      },
    },
    {
      name: `creates the Deployment ${ENTITY} on the demo cluster`,
      async run(t) {
        const apps = await appsApi(t);
        try {
          await apps.createNamespacedDeployment({
            namespace: NAMESPACE,
            body: deployment,
          });
        } catch (e) {
          if (!exists(e)) throw e; // left from an interrupted run: the same object
        }
        const read = await apps.readNamespacedDeployment({
          name: ENTITY,
          namespace: NAMESPACE,
        });
        t.expect(
          read.metadata.labels['backstage.io/kubernetes-id'] === ENTITY,
          'the Deployment has no backstage.io/kubernetes-id label',
        );
      },
    },
    {
      name: `the ${ENTITY} entity's Kubernetes tab shows the Deployment on the demo cluster`,
      async run(t) {
        await navigateInApp(
          t.page,
          `/catalog/default/component/${ENTITY}/kubernetes`,
        );
        // the tab asks again every 10 s: the Deployment shows within a few of its rounds
        const cluster = t.page
          .getByText(t.clusterName, { exact: true })
          .first();
        await cluster.waitFor({ timeout: 60_000 });
        await cluster.click(); // its accordion holds the cluster's workloads
        const kind = t.page.getByText('Deployment', { exact: true }).first();
        await kind.waitFor({ timeout: 30_000 });
        const text = await t.page.locator('main').innerText();
        t.expect(
          text.includes(ENTITY) && text.includes(t.clusterName),
          `the tab does not show ${ENTITY} on ${t.clusterName}: ${text.slice(
            0,
            400,
          )}`,
        );
        t.expect(
          !/authProvider "infrared" has no KubernetesAuthProvider/.test(text),
          'the app has no auth provider for infrared clusters',
        );
        await t.screenshot('kubernetes-tab');
      },
    },
    {
      name: "the demo cluster's catalog Resource has a Kubernetes tab with the objects on that cluster (issue 23.4)",
      async run(t) {
        await navigateInApp(
          t.page,
          `/catalog/default/resource/${t.clusterName}/kubernetes`,
        );
        const cluster = t.page
          .getByText(t.clusterName, { exact: true })
          .first();
        await cluster.waitFor({ timeout: 60_000 });
        // its accordion holds the cluster's workloads (a click while the tab still loads may not hold)
        const kind = t.page.getByText('Deployment', { exact: true }).first();
        const summary = t.page
          .locator('[aria-expanded]')
          .filter({ hasText: t.clusterName })
          .first();
        for (let attempt = 1; ; attempt++) {
          if ((await summary.getAttribute('aria-expanded')) !== 'true') {
            await summary.click();
          }
          try {
            await kind.waitFor({ timeout: 20_000 });
            break;
          } catch (e) {
            if (attempt >= 3) throw e;
          }
        }
        const text = await t.page.locator('main').innerText();
        t.expect(
          text.includes(ENTITY) && text.includes('Deployment'),
          `the tab of ${
            t.clusterName
          } does not show its Deployment: ${text.slice(0, 400)}`,
        );
        await t.screenshot('kubernetes-cluster-tab');
      },
    },
    {
      name: "the catalog's Name column at 1280x800 breaks names only between their parts, never letter by letter (issue 23.5)",
      async run(t) {
        await navigateInApp(
          t.page,
          '/catalog?filters[kind]=component&filters[user]=all',
        );
        await t.page
          .getByRole('link', { name: ENTITY, exact: true })
          .first()
          .waitFor({ timeout: 30_000 });
        const measure = () =>
          t.page.evaluate(() =>
            [
              ...document.querySelectorAll('td a[href*="/catalog/default/"]'),
            ].map(a => {
              const tops = new Set(
                [...a.getClientRects()]
                  .filter(r => r.width > 0)
                  .map(r => Math.round(r.top)),
              );
              const text = a.textContent.trim();
              const td = a.closest('td');
              return {
                text,
                lines: tops.size,
                parts: text.split(/[-.]/).length,
                width: Math.round(td.getBoundingClientRect().width),
                clipped: td.scrollWidth > td.clientWidth + 1,
              };
            }),
          );
        const names = await measure();
        // the figures without the app's table styles, for comparison (the page as before issue 23.5)
        const without = await t.page.evaluate(() => {
          const style = document.querySelector(
            'style[data-testid="infrared-table-styles"]',
          );
          const text = style?.textContent ?? '';
          if (style) style.textContent = '';
          return text;
        });
        const before = await measure();
        await t.page.evaluate(css => {
          const style = document.querySelector(
            'style[data-testid="infrared-table-styles"]',
          );
          if (style) style.textContent = css;
        }, without);
        const show = list =>
          list
            .filter(n => n.parts > 1)
            .map(n => `${n.text} ${n.lines} lines in ${n.width} px`)
            .join(', ');
        console.log(`    catalog names now: ${show(names)}`);
        console.log(`    without the table styles: ${show(before)}`);
        t.expect(names.length > 0, 'the catalog table lists no entity');
        for (const n of names) {
          t.expect(
            n.lines <= n.parts && !n.clipped,
            `the name ${n.text} takes ${n.lines} lines for ${n.parts} parts${
              n.clipped ? ', and is clipped' : ''
            }`,
          );
        }
        await t.screenshot('catalog-names');
      },
    },
    {
      name: 'deletes the Deployment and removes the demo cluster again',
      async run(t) {
        const apps = await appsApi(t);
        try {
          await apps.deleteNamespacedDeployment({
            name: ENTITY,
            namespace: NAMESPACE,
            propagationPolicy: 'Background',
          });
        } catch (e) {
          if (!notFound(e)) throw e;
        }
        await openClusters(t, t.clusterName);
        await removeIfThere(t.page, t.clusterName);
      },
    },
  ],
};
