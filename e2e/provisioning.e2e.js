/*
 * A cluster built with OpenTofu end to end, with the demo template of app-config.yaml
 * (examples/tofu/demo-cluster) run by devenv's node agent with a real tofu: "Build with OpenTofu"
 * in the register form, the plan summary in the panel, Apply behind the billable caution, the new
 * local API server Registered, Destroy behind the typed name, and Remove.
 */
const NAME = 'e2e-built';
const TIMEOUT = 180_000;
const {
  openPanel,
  removeIfThere,
  row,
  searchClusters,
  signInIfAsked,
} = require('./portal');

/** Reopens the panel until its Build section says `text` (the page refreshes the cluster list). */
async function waitInPanel(page, name, text) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const panel = await openPanel(page, name);
    const build = panel.getByRole('group', { name: 'Build with OpenTofu' });
    const said = await build.innerText().catch(() => '');
    if (said.includes(text)) return { panel, build, said };
    if (Date.now() > deadline) {
      throw new Error(`the panel never said "${text}"; it says:\n${said}`);
    }
    await page.getByRole('button', { name: 'Close the cluster panel' }).click();
    await page.waitForTimeout(2000);
  }
}

module.exports = {
  title: 'Build a cluster with OpenTofu',
  steps: [
    {
      name: 'builds the demo cluster from the register form: a plan with its summary',
      async run(t) {
        await t.page.goto(`${t.baseUrl}/`, { timeout: 180_000 }); // the first load builds the bundle
        await signInIfAsked(t.page);
        await t.page.getByRole('link', { name: 'Clusters' }).first().click();
        await t.page.getByTestId('cluster-count').waitFor({ timeout: 30_000 });
        await removeIfThere(t.page, NAME);
        await t.page
          .getByRole('button', { name: 'Register a workload cluster' })
          .click();
        const dialog = t.page.getByRole('dialog', {
          name: 'Register a workload cluster',
        });
        await dialog.getByRole('textbox', { name: 'Name' }).fill(NAME);
        await dialog
          .getByRole('radio', { name: 'Build with OpenTofu' })
          .check();
        await dialog.getByRole('button', { name: /Template/ }).click();
        await t.page
          .getByRole('option', { name: /local\/demo-cluster/ })
          .click();
        await t.screenshot('build-form');
        await dialog.getByRole('button', { name: 'Register' }).click();
        const progress = dialog.getByTestId('registration-progress');
        await progress.waitFor();
        // the dialog follows the plan Job to its summary, and planning is no failure (issue 23.3)
        await dialog.getByTestId('plan-summary').waitFor({ timeout: TIMEOUT });
        const shown = await progress.innerText();
        t.expect(
          !/Stuck|NoConnection|remove the cluster/.test(shown),
          `the build dialog: ${shown}`,
        );
        const { width, height } = t.page.viewportSize();
        t.expect(
          width === 1280 && height === 800,
          `viewport ${width}x${height}`,
        );
        await t.screenshot('build-dialog');
        await dialog.getByRole('button', { name: 'Close' }).click();
        const { said } = await waitInPanel(
          t.page,
          NAME,
          'Plan: 1 to add, 0 to change, 0 to destroy',
        );
        t.expect(
          said.includes('terraform_data.cluster'),
          `no resource address in: ${said}`,
        );
        await t.screenshot('plan-summary');
      },
    },
    {
      name: "applies it behind the caution in the template's words; the new cluster is Registered",
      async run(t) {
        const panel = await openPanel(t.page, NAME);
        await panel.getByRole('button', { name: 'Apply' }).click();
        const confirm = t.page.getByRole('dialog', { name: `Apply ${NAME}?` });
        // the template's words come with GET /v1/provisioning/templates
        await confirm
          .getByText(/Starts another local Kubernetes API server/)
          .waitFor();
        const caution = await confirm
          .getByTestId('billable-caution')
          .innerText();
        // the template's own words, and nothing of cloud accounts: it has none (issue 23.3)
        t.expect(
          caution.includes('Starts another local Kubernetes API server') &&
            !/cloud|credentials|billable/.test(caution),
          `caution: ${caution}`,
        );
        t.expect(
          await confirm.getByRole('button', { name: 'Apply' }).isDisabled(),
          'Apply enabled before the acknowledgement',
        );
        await confirm
          .getByRole('checkbox', {
            name: 'I understand what apply creates',
          })
          .check();
        await t.screenshot('apply-caution');
        await confirm.getByRole('button', { name: 'Apply' }).click();
        await confirm.waitFor({ state: 'detached' });
        await t.page
          .getByRole('button', { name: 'Close the cluster panel' })
          .click();
        await searchClusters(t.page, NAME);
        await row(t.page, NAME)
          .getByLabel(/^Registered: True/)
          .waitFor({ timeout: TIMEOUT });
        await t.screenshot('built-registered');
      },
    },
    {
      name: 'destroys it with the typed name, then removes it',
      async run(t) {
        const panel = await openPanel(t.page, NAME);
        await panel.getByRole('button', { name: 'Destroy' }).click();
        const confirm = t.page.getByRole('dialog', {
          name: `Destroy ${NAME}?`,
        });
        await confirm
          .getByRole('textbox', { name: 'Type the cluster name to destroy it' })
          .fill(NAME);
        await confirm.getByRole('button', { name: 'Destroy' }).click();
        await confirm.waitFor({ state: 'detached' });
        await t.page
          .getByRole('button', { name: 'Close the cluster panel' })
          .click();
        await waitInPanel(t.page, NAME, 'destroy, generation');
        await waitInPanel(t.page, NAME, 'Succeeded');
        // Destroyed: a plan or an apply of a new generation, or Remove (issue 23.1)
        const { panel: after } = await waitInPanel(
          t.page,
          NAME,
          'Destroyed: what the template built',
        );
        await after.getByRole('button', { name: 'Plan' }).waitFor();
        await t.screenshot('destroyed');
        await t.page
          .getByRole('button', { name: 'Close the cluster panel' })
          .click();
        await removeIfThere(t.page, NAME);
      },
    },
  ],
};
