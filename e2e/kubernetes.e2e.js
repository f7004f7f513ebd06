/*
 * The Kubernetes tab of a catalog entity, end to end: edge-demo is registered (through the Clusters
 * page, unless it already is), a Deployment labelled backstage.io/kubernetes-id=edge-hello is created
 * on edge-demo with the e2e's kubeconfig (loopback only), and the edge-hello Component's Kubernetes
 * tab shows it on edge-demo: the Kubernetes plugin got the cluster from
 * @infrared-clusters/plugin-kubernetes-backend-module-infrared, not from config. The Deployment is
 * deleted and the cluster removed at the end.
 */
const fs = require('node:fs');

const ENTITY = process.env.E2E_K8S_ENTITY || 'edge-hello';
const NAMESPACE = 'default';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

const row = (page, name) => page.getByTestId(`cluster-row-${name}`);

/** The portal's guest sign-in page, when it shows one (its session request may fail once when busy). */
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
}

async function openClusters(t) {
  if (!(await t.page.getByRole('link', { name: 'Clusters' }).count())) {
    await t.page.goto(`${t.baseUrl}/`);
    await signInIfAsked(t.page);
  }
  await t.page.getByRole('link', { name: 'Clusters' }).first().click();
  await t.page.getByTestId('cluster-count').waitFor({ timeout: 30_000 });
  await t.page.getByLabel('Filter clusters').fill(t.clusterName);
}

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
      name: 'has the demo cluster registered (registers it when it is not there)',
      async run(t) {
        await openClusters(t);
        if (!(await row(t.page, t.clusterName).count())) {
          t.expect(
            fs.existsSync(t.kubeconfigPath),
            `no kubeconfig at ${t.kubeconfigPath}: is the local control plane up?`,
          );
          await t.page
            .getByRole('button', { name: 'Register a workload cluster' })
            .click();
          const dialog = t.page.getByRole('dialog', {
            name: 'Register a workload cluster',
          });
          await dialog
            .getByRole('textbox', { name: 'Name' })
            .fill(t.clusterName);
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
        // Within the signed-in app (as a link does), not a reload that signs in again.
        await t.page.evaluate(to => {
          window.history.pushState({}, '', to);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, `/catalog/default/component/${ENTITY}/kubernetes`);
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
        await openClusters(t);
        await t.page
          .getByRole('button', { name: `Open cluster ${t.clusterName}` })
          .click();
        const panel = t.page.getByRole('region', {
          name: `Cluster ${t.clusterName}`,
        });
        await panel.getByRole('button', { name: 'Remove' }).click();
        const confirm = t.page.getByRole('dialog', {
          name: `Remove cluster ${t.clusterName}?`,
        });
        await confirm.getByRole('button', { name: 'Remove cluster' }).click();
        await row(t.page, t.clusterName).waitFor({
          state: 'detached',
          timeout: 30_000,
        });
      },
    },
  ],
};
