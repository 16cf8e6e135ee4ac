// Nothing hides: at 1280 px every project tab is in sight or in the More menu beside them
// (Members, Audit and Settings were past the end of a scrolling tab row), and on a phone the run header wraps rather than cut to
// "Run #20 ·…" / "SUCCESSF…". The template page has its Edit button. Its own project: it
// depends on no other spec's state.
import { type Locator, expect as baseExpect, request, test } from "@playwright/test";
import { openAs, screenshot } from "./admin-api.ts";
import { Workbench } from "./run-workbench.ts";

const expect = baseExpect.configure({ timeout: 20_000 });

// a template name as long as a real one, so that the phone's header has to wrap
const NAME = "patch-oracle-databases-and-restart-listeners";
const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - name: say
      ansible.builtin.debug:
        msg: patched
`;

let bench: Workbench;
let runId = 0;

test.beforeAll(async ({ baseURL }) => {
  const context = await request.newContext({ baseURL });
  bench = await Workbench.create(context, `layout-${Date.now()}`, { [`${NAME}.yml`]: PLAYBOOK });
  runId = (await bench.launch(NAME)).id;
  await bench.waitFinished(runId);
});

/** Whether the element shows all of its content: nothing cut by its own width. */
async function uncut(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const cut = (e: Element) => e.scrollWidth > e.clientWidth + 1;
    return !cut(element) && ![...element.querySelectorAll("*")].some(cut);
  });
}

test("at 1280 px every project tab is in sight or in More; the template page opens its edit form", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAs(page, `/projects/${bench.projectId}/templates`);
  const tabs = page.getByRole("tablist", { name: "Project sections" });
  await expect(tabs.getByRole("tab", { name: "Templates" })).toBeVisible();
  // the row does not scroll: what is not on screen is not hidden past its end either
  expect(await tabs.evaluate((list) => list.scrollWidth <= list.clientWidth + 1)).toBe(true);
  for (const name of await tabs.getByRole("tab").allTextContents()) {
    const tab = tabs.getByRole("tab", { name });
    await expect(tab).toBeInViewport({ ratio: 1 });
    const box = await tab.boundingBox();
    expect(box && box.x + box.width <= 1280, `${name} within the window`).toBe(true);
  }
  // the others are in More, in the window too
  const more = page.getByRole("button", { name: /^More sections/ });
  await expect(more).toBeInViewport({ ratio: 1 });
  await more.click();
  for (const name of ["Members", "Audit", "Settings"]) {
    await expect(page.getByRole("menuitem", { name })).toBeVisible();
  }
  await screenshot(page, { path: testInfo.outputPath("project-tabs-1280.png"), fullPage: true });
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);

  await page.goto(`/projects/${bench.projectId}/templates`);
  await page.getByRole("link", { name: NAME }).first().click();
  await expect(page.getByRole("heading", { name: NAME })).toBeVisible();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Edit template “${NAME}”` });
  await expect(dialog.getByRole("textbox", { name: "Name" })).toHaveValue(NAME);
  // the git ref the API lets a launch override is one of the choices
  await expect(dialog.getByRole("checkbox", { name: "Git ref" })).toBeVisible();
  await screenshot(page, { path: testInfo.outputPath("template-edit-1280.png") });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
});

test("on a phone the run header wraps instead of cutting the name and the status", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAs(page, `/projects/${bench.projectId}/runs/${runId}`);
  const title = page.getByRole("heading", { name: `Run #${runId} · ${NAME}` });
  await expect(title).toBeVisible();
  const status = page.getByText("successful", { exact: true }).first();
  await expect(status).toBeVisible();
  expect(await uncut(title), "the run's name is shown whole").toBe(true);
  expect(await uncut(status), "the status is shown whole").toBe(true);
  // the control: the name is longer than a phone's line, so it did have to wrap
  const box = await title.boundingBox();
  expect(box && box.height > 40, "the name takes more than one line").toBe(true);
  await screenshot(page, { path: testInfo.outputPath("run-header-390.png"), fullPage: true });

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(title).toBeVisible();
  await screenshot(page, { path: testInfo.outputPath("run-header-1280.png") });
});
