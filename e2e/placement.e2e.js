/*
 * Zone placement end to end, on the demo data of `npm start` (Organization acme, Product checkout
 * in ir-org-acme with checkout-prod on edge-demo, the catalog Component checkout annotated
 * infrared.darkshift.io/product: ir-org-acme/checkout): a platform admin ticks acme for edge-demo on
 * its panel, the checkout entity page's card shows checkout-prod on edge-demo deciding Promotes, and
 * unticking gives Fails with a reason that names the allowlist. edge-demo is registered first when
 * it is not there, and removed again at the end.
 */
const {
  ensureRegistered,
  navigateInApp,
  openClusters,
  openPanel,
  removeIfThere,
} = require('./portal');

const ORG = process.env.E2E_ORG || 'acme';
const ENTITY = process.env.E2E_ENTITY || 'checkout';
const ZONE = process.env.E2E_ZONE || 'checkout-prod';

/** Ticks or unticks the org on the cluster's panel and waits for the answer. */
async function setOrgAllowed(t, allowed) {
  await openClusters(t, t.clusterName);
  const panel = await openPanel(t.page, t.clusterName);
  const box = panel.getByRole('checkbox', { name: `Allow ${ORG}` });
  await box.waitFor();
  if ((await box.isChecked()) !== allowed) {
    await box.click();
    await t.page.waitForFunction(
      ([label, want]) => {
        const input = document.querySelector(`input[aria-label="${label}"]`);
        return input && input.checked === want && !input.disabled;
      },
      [`Allow ${ORG}`, allowed],
      { timeout: 15_000 },
    );
  }
  return panel;
}

/** The card's row of the zone on the entity page. */
async function zoneRow(t) {
  await navigateInApp(t.page, `/catalog/default/component/${ENTITY}`);
  const r = t.page.getByTestId(`zone-row-${ZONE}`);
  await r.waitFor({ timeout: 30_000 });
  return r;
}

module.exports = {
  title: 'Zone placement',
  steps: [
    {
      name: `while ${ZONE}'s cluster is not a Cluster, the card offers "Register it", which opens the register form with its name`,
      async run(t) {
        await openClusters(t); // signs in when asked
        const r = await zoneRow(t);
        await t.page.getByTestId(`decision-${ZONE}`).waitFor();
        const offer = r.getByTestId(`register-${ZONE}`);
        if (!(await offer.count())) {
          // registered by an earlier run that did not get to remove it: nothing to offer
          console.log(
            `    ${t.clusterName} is a Cluster already: no "Register it"`,
          );
          return;
        }
        t.expect(
          !(await r.getByRole('button', { name: /^Allow / }).count()),
          'the card offers to allow a cluster that is not registered',
        );
        await r.scrollIntoViewIfNeeded();
        await t.screenshot('card-register-it');
        await offer.getByRole('link', { name: 'Register it' }).click();
        const dialog = t.page.getByRole('dialog');
        const name = dialog.getByRole('textbox', { name: 'Name' });
        await name.waitFor({ timeout: 30_000 });
        const value = await name.inputValue();
        t.expect(
          value === t.clusterName,
          `the register form's name is "${value}", not ${t.clusterName}`,
        );
        await t.screenshot('register-form-prefilled');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
      },
    },
    {
      name: 'has the demo cluster registered (registers it when it is not there)',
      async run(t) {
        await ensureRegistered(t);
        await t.screenshot('registered');
      },
    },
    {
      name: `a platform admin ticks ${ORG} for the cluster under Orgs allowed`,
      async run(t) {
        const panel = await setOrgAllowed(t, false);
        await panel.getByRole('checkbox', { name: `Allow ${ORG}` }).click();
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
        const zones = await panel
          .getByRole('list', { name: 'Zones placed' })
          .innerText();
        t.expect(
          zones.includes(ZONE),
          `the panel's Zones placed does not list ${ZONE}: ${zones}`,
        );
        await t.screenshot('org-ticked');
      },
    },
    {
      name: `the ${ENTITY} entity page's card shows ${ZONE} on the cluster deciding Promotes`,
      async run(t) {
        const r = await zoneRow(t);
        const decision = r.getByTestId(`decision-${ZONE}`);
        await t.page.waitForFunction(
          id =>
            document.querySelector(`[data-testid="${id}"]`)?.innerText ===
            'Promotes',
          `decision-${ZONE}`,
          { timeout: 15_000 },
        );
        t.expect(
          (await decision.innerText()) === 'Promotes',
          `decision reads ${await decision.innerText()}`,
        );
        const text = await r.innerText();
        t.expect(
          text.includes(t.clusterName),
          `the row does not name ${t.clusterName}: ${text}`,
        );
        t.expect(
          text.includes(
            `registry/clusters/${t.clusterName}/components/product-${ZONE}.yaml`,
          ),
          `the row has no Application path: ${text}`,
        );
        await r.scrollIntoViewIfNeeded();
        await t.screenshot('card-promotes');
      },
    },
    {
      name: 'unticking gives Fails with a reason that names the allowlist',
      async run(t) {
        await setOrgAllowed(t, false);
        await t.screenshot('org-unticked');
        const r = await zoneRow(t);
        await t.page.waitForFunction(
          id =>
            document.querySelector(`[data-testid="${id}"]`)?.innerText ===
            'Fails',
          `decision-${ZONE}`,
          { timeout: 15_000 },
        );
        const text = await r.innerText();
        t.expect(
          /not on org \S+'s cluster allowlist/.test(text),
          `the reason does not name the allowlist: ${text}`,
        );
        await r.scrollIntoViewIfNeeded();
        await t.screenshot('card-fails');
      },
    },
    {
      name: "at 1280x800 the card's cluster dropdowns show whole names and no reason text is clipped",
      async run(t) {
        const r = await zoneRow(t);
        await r.scrollIntoViewIfNeeded();
        const card = t.page.locator('table[aria-label="Zones"]');
        const m = await card.evaluate(table => {
          const cardBox = table.closest('.MuiCard-root') || table.parentElement;
          const edge = cardBox.getBoundingClientRect().right;
          const selects = [...table.querySelectorAll('select')].map(sel => {
            // The selected option's text in the select's own font, against the room inside it.
            const cs = getComputedStyle(sel);
            const probe = document.createElement('span');
            probe.style.font = cs.font;
            probe.style.whiteSpace = 'pre';
            probe.style.position = 'absolute';
            probe.textContent = sel.options[sel.selectedIndex]?.text ?? '';
            document.body.appendChild(probe);
            const text = probe.getBoundingClientRect().width;
            probe.remove();
            const room =
              sel.clientWidth -
              parseFloat(cs.paddingLeft) -
              parseFloat(cs.paddingRight);
            return {
              label: sel.getAttribute('aria-label'),
              shown: probe.textContent,
              text: Math.ceil(text),
              room: Math.floor(room),
              right: Math.round(sel.getBoundingClientRect().right),
            };
          });
          const reasons = [
            ...table.querySelectorAll('[data-testid^="reason-"]'),
          ].map(el => ({
            id: el.dataset.testid,
            scrollWidth: el.scrollWidth,
            clientWidth: el.clientWidth,
            right: Math.round(el.getBoundingClientRect().right),
          }));
          const container = table.parentElement;
          return {
            edge: Math.round(edge),
            table: {
              scrollWidth: table.scrollWidth,
              containerWidth: container.clientWidth,
              right: Math.round(table.getBoundingClientRect().right),
            },
            selects,
            reasons,
          };
        });
        console.log(`    card widths: ${JSON.stringify(m)}`);
        await t.screenshot('card-widths');
        t.expect(m.selects.length > 0, 'the card shows no cluster dropdown');
        for (const s of m.selects) {
          t.expect(
            s.text <= s.room && s.right <= m.edge,
            `${s.label} truncates "${s.shown}": text ${s.text}px in ${s.room}px, right edge ${s.right} (card ${m.edge})`,
          );
        }
        t.expect(m.reasons.length > 0, 'the card shows no reason text');
        for (const x of m.reasons) {
          t.expect(
            x.scrollWidth <= x.clientWidth && x.right <= m.edge,
            `${x.id} is clipped: scrollWidth ${x.scrollWidth} > clientWidth ${x.clientWidth}, or right edge ${x.right} past the card's ${m.edge}`,
          );
        }
        t.expect(
          m.table.scrollWidth <= m.table.containerWidth &&
            m.table.right <= m.edge,
          `the zones table is wider than the card: ${m.table.scrollWidth}px in ${m.table.containerWidth}px`,
        );
      },
    },
    {
      name: 'removes the demo cluster again',
      async run(t) {
        await openClusters(t, t.clusterName);
        await removeIfThere(t.page, t.clusterName);
      },
    },
  ],
};
