/*
 * The loop Argo CD closes, end to end on the portal of `npm start` (a real Argo CD beside the local
 * control plane, cloning .data/gitops.git over loopback git): edge-demo registered in the page, its
 * panel says "Argo CD sees this cluster: Successful" (read from argocd-server through the portal's
 * proxy); acme allowed on it; on the checkout entity page checkout-rc is Healthy (as Argo CD's
 * application-controller reports it) and checkout-prod AwaitingApproval; Approve on the card, and
 * checkout-prod turns Healthy. edge-demo is removed at the end.
 */
const fs = require('node:fs');
const path = require('node:path');
const {
  ensureRegistered,
  navigateInApp,
  openClusters,
  openPanel,
  removeIfThere,
} = require('./portal');

const ORG = 'acme';
const NAMESPACE = 'ir-org-acme';
const ENTITY = 'checkout';
const RELEASE = 'checkout-v0-1-0';
const RC = 'checkout-rc';
const PROD = 'checkout-prod';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
/** Argo CD syncs, then the release gate's next pass (every 15 s in app-config.yaml) reads it. */
const HEALTHY_MS = 240_000;

/** The Release API of the management cluster (npm start's kubeconfig); loopback servers only. */
async function releases(t) {
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  const file = path.join(
    path.dirname(t.kubeconfigPath),
    'management.kubeconfig',
  );
  kc.loadFromString(fs.readFileSync(file, 'utf8'));
  const server = new URL(kc.getCurrentCluster().server);
  t.expect(
    LOOPBACK.has(server.hostname),
    `${file} names ${server.host}: only a loopback API server is used`,
  );
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const ref = {
    group: 'infrared.darkshift.io',
    version: 'v1alpha1',
    namespace: NAMESPACE,
    plural: 'releases',
  };
  return {
    get: () => api.getNamespacedCustomObject({ ...ref, name: RELEASE }),
    /** Back to Promoting with no zone status: what devenv's demo leaves, for a second run. */
    reset: () =>
      api.patchNamespacedCustomObjectStatus({
        ...ref,
        name: RELEASE,
        body: [
          {
            op: 'replace',
            path: '/status',
            value: { phase: 'Promoting', version: 'v0.1.0' },
          },
        ],
      }),
  };
}

/** The zone's row on the checkout entity page's card, re-read until `want` is true of its text. */
async function zoneRowUntil(t, zone, want, timeoutMs, shot) {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  for (;;) {
    await navigateInApp(t.page, '/catalog');
    await navigateInApp(t.page, `/catalog/default/component/${ENTITY}`);
    const r = t.page.getByTestId(`zone-row-${zone}`);
    // A card that did not load (the backend busy or restarting) is asked again until the deadline.
    text = await r
      .waitFor({ timeout: 30_000 })
      .then(() => r.innerText())
      .catch(
        e => `(the card did not show the zone: ${e.message.split('\n')[0]})`,
      );
    if (want(text)) {
      await r.scrollIntoViewIfNeeded();
      if (shot) await t.screenshot(shot);
      return r;
    }
    if (Date.now() > deadline) {
      throw new Error(`zone ${zone} never got there; its row says:\n${text}`);
    }
    await t.page.waitForTimeout(5000);
  }
}

module.exports = {
  title: 'Argo CD closes the loop',
  steps: [
    {
      name: `the demo Release ${RELEASE} is promoting (a second run puts it back)`,
      async run(t) {
        const api = await releases(t);
        const release = await api.get();
        const zones = release.status?.zones ?? [];
        if (
          release.status?.phase !== 'Promoting' ||
          zones.some(z => z.approvedBy)
        ) {
          await api.reset();
        }
        t.expect(
          (await api.get()).status?.phase === 'Promoting',
          `Release ${RELEASE} is not Promoting`,
        );
      },
    },
    {
      name: 'registers edge-demo in the page; its panel says Argo CD sees this cluster: Successful',
      async run(t) {
        await ensureRegistered(t);
        // Argo CD monitors the cluster once the component registration wrote syncs to it: the root
        // Application's refresh, the app-of-apps, the component (about 10-60 s; bounded at 4 min).
        const deadline = Date.now() + HEALTHY_MS;
        let said = '';
        for (;;) {
          await openClusters(t, t.clusterName);
          const panel = await openPanel(t.page, t.clusterName);
          const fact = panel.getByTestId('argocd-connection');
          await t.page.waitForFunction(
            () =>
              !/^Asking/.test(
                document.querySelector('[data-testid="argocd-connection"]')
                  ?.textContent ?? 'Asking',
              ),
            undefined,
            { timeout: 30_000 },
          );
          said = await fact.innerText();
          if (said === 'Successful') break;
          t.expect(Date.now() < deadline, `Argo CD sees this cluster: ${said}`);
          await t.page.waitForTimeout(3000);
        }
        await t.screenshot('argocd-successful');
      },
    },
    {
      name: `allows ${ORG} on edge-demo`,
      async run(t) {
        await openClusters(t, t.clusterName);
        const panel = await openPanel(t.page, t.clusterName);
        const box = panel.getByRole('checkbox', { name: `Allow ${ORG}` });
        await box.waitFor();
        if (!(await box.isChecked())) await box.click();
        await t.page.waitForFunction(
          label => {
            const input = document.querySelector(
              `input[aria-label="${label}"]`,
            );
            return input && input.checked && !input.disabled;
          },
          `Allow ${ORG}`,
          { timeout: 15_000 },
        );
      },
    },
    {
      name: `the card shows ${RC} Healthy as Argo CD reports it, and ${PROD} AwaitingApproval`,
      async run(t) {
        await zoneRowUntil(
          t,
          RC,
          text => /\bHealthy\b/.test(text),
          HEALTHY_MS,
          'rc-healthy',
        );
        await zoneRowUntil(
          t,
          PROD,
          text => /AwaitingApproval/.test(text),
          HEALTHY_MS,
          'prod-awaiting-approval',
        );
      },
    },
    {
      name: `approves ${PROD} on the card and sees it turn Healthy on edge-demo`,
      async run(t) {
        // The button's label is CSS upper case in innerText: found by its accessible name instead.
        const r = await zoneRowUntil(
          t,
          PROD,
          text => /AwaitingApproval/.test(text),
          30_000,
        );
        const approve = r.getByRole('button', {
          name: `Approve ${PROD} for Release ${RELEASE}`,
        });
        await approve.waitFor();
        await approve.click();
        await zoneRowUntil(
          t,
          PROD,
          text => /Approved by/.test(text),
          30_000,
          'prod-approved',
        );
        const row = await zoneRowUntil(
          t,
          PROD,
          text => /\bHealthy\b/.test(text),
          HEALTHY_MS,
          'prod-healthy',
        );
        const text = await row.innerText();
        t.expect(
          /Approved by user:development\/guest/.test(text),
          `no approver on the row: ${text}`,
        );
        // the row's phase explanation names Healthy too ("waits for ... Synced and Healthy"): the
        // Release's own status decides, asked until it is Healthy or the time is up
        const deadline = Date.now() + HEALTHY_MS;
        let prod;
        for (;;) {
          const status = (await (await releases(t)).get()).status;
          prod = (status?.zones ?? []).find(z => z.name === PROD);
          if (prod?.phase === 'Healthy' || Date.now() > deadline) break;
          await new Promise(resolve => setTimeout(resolve, 2000));
        }
        t.expect(
          prod?.phase === 'Healthy' &&
            prod?.approvedBy === 'user:development/guest',
          `the Release says ${JSON.stringify(prod)}`,
        );
      },
    },
    {
      name: 'removes edge-demo again',
      async run(t) {
        await openClusters(t, t.clusterName);
        await removeIfThere(t.page, t.clusterName);
      },
    },
  ],
};
