// Launch ergonomics against the real server: a relaunch opens the launch dialog prefilled with
// the run's values (a changed var reaches the new run; a secret answer is kept unseen), "failed
// hosts only" limits the new run to them, extra vars are typed as YAML, and the template form
// offers the playbooks found in the repository; during a freeze, the launch and relaunch
// dialogs ask the override's reason. Desktop and phone width, screenshots of each.
import { type Page, expect as baseExpect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { shots } from "./admin-api.ts";
import { type RunBody, Workbench } from "./run-workbench.ts";

const expect = baseExpect.configure({ timeout: 15_000 });
const python =
  process.env.STEWARD_PYTHON ?? join(resolve(import.meta.dirname, "..", ".."), ".venv/bin/python");

const GREET = `- hosts: all
  gather_facts: false
  tasks:
    - name: greet
      ansible.builtin.debug: {msg: "hello {{ who | default('nobody') }} on {{ db_port | default('no port') }}"}
`;
const PARTIAL = `- hosts: all
  gather_facts: false
  tasks:
    - name: beta breaks
      ansible.builtin.fail: {msg: "beta is broken"}
      when: inventory_hostname == 'beta'
`;
const NOT_A_PLAYBOOK = "retention: 7\n";

interface Run extends RunBody {
  params: { limit: string; launch_vars: Record<string, unknown>; secret_extra_vars: object };
}

let bench: Workbench;
let greet = 0; // a template with extra vars, a limit and a password question a launch may set
let partial = 0; // a template on alpha and beta, of which beta fails

async function readRun(page: Page, id: number): Promise<Run> {
  return (await (await page.request.get(bench.url(`runs/${id}`))).json()) as Run;
}

async function newRunId(page: Page, previous: number): Promise<number> {
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  await expect(page).not.toHaveURL(new RegExp(`/runs/${previous}$`));
  return Number(page.url().split("/").pop());
}

// each test builds its own project (below): they need not wait for each other, nor share a worker
test.describe.configure({ mode: "parallel" });

/** A project of its own for each test, signed in through `page.request`: the page's cookies, so
 * the page is signed in as the admin too. */
test.beforeEach(async ({ page }, info) => {
  // each waits for real runs of ansible-playbook on a machine other tests share
  test.setTimeout(180_000);
  bench = await Workbench.create(page.request, `launch-${info.workerIndex}-${Date.now()}`, {
    "greet.yml": GREET,
    "partial.yml": PARTIAL,
  });
  const listed = await page.request.get(bench.url("templates"));
  const items = ((await listed.json()) as { items: Record<string, number>[] }).items;
  const repository = items[0]?.repository_id ?? 0;
  const inventory = items[0]?.inventory_id ?? 0;
  // a YAML file of the repository that is no playbook: never offered
  const read = await page.request.get(bench.url(`repositories/${repository}`));
  writeFileSync(join(((await read.json()) as { url: string }).url, "vars.yml"), NOT_A_PLAYBOOK);
  greet = (
    await bench.post(bench.url("templates"), {
      name: "greet-launch",
      playbook: "greet.yml",
      repository_id: repository,
      inventory_id: inventory,
      overridable: ["limit", "extra_vars"],
      survey: [{ variable: "pw", label: "Password", type: "password", required: true }],
    })
  )["id"] as number;
  const two = await bench.post(bench.url("inventories"), {
    name: "alpha-beta",
    kind: "static",
    format: "ini",
    content:
      `alpha ansible_connection=local ansible_python_interpreter=${python}\n` +
      `beta ansible_connection=local ansible_python_interpreter=${python}\n`,
  });
  partial = (
    await bench.post(bench.url("templates"), {
      name: "partial-launch",
      playbook: "partial.yml",
      repository_id: repository,
      inventory_id: two["id"],
    })
  )["id"] as number;
});

test("relaunch opens the launch dialog prefilled; a changed var reaches the new run", async ({
  page,
}) => {
  const first = (await bench.post(bench.url("runs"), {
    template_id: greet,
    extra_vars: { who: "first" },
    survey: { pw: "s3cret-answer" },
  })) as unknown as RunBody;
  await bench.waitFinished(first.id);
  await page.goto(`/projects/${bench.projectId}/runs/${first.id}`);
  await page.getByRole("button", { name: "Relaunch" }).click();
  await page.getByRole("menuitem", { name: "All hosts" }).click();
  const dialog = page.getByRole("dialog", { name: `Relaunch run #${first.id}` });
  const vars = dialog.getByRole("textbox", { name: "Extra vars" });
  await expect(vars).toHaveValue(/"who": "first"/);
  const password = dialog.getByLabel("Password");
  await expect(password).toHaveValue("");
  await expect(password).toHaveAttribute("placeholder", "(kept)");
  await expect(dialog).not.toContainText("s3cret-answer");
  await shots(page, "relaunch-dialog");
  await vars.fill("who: second");
  await dialog.getByRole("button", { name: "Relaunch" }).click();
  const id = await newRunId(page, first.id);
  const run = await readRun(page, id);
  expect(run.params.launch_vars).toEqual({ who: "second" });
  expect(run.params.secret_extra_vars).toEqual({ pw: "********" });
  expect((await bench.waitFinished(id)).status).toBe("successful");
  const output = await page.request.get(bench.url(`runs/${id}/output`));
  expect(await output.text()).toContain("hello second on no port");

  // on a phone the dialog fills the screen and its button is reachable
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Relaunch" }).click();
  await page.getByRole("menuitem", { name: "All hosts" }).click();
  const phone = page.getByRole("dialog", { name: `Relaunch run #${id}` });
  await expect(phone.getByRole("textbox", { name: "Extra vars" })).toHaveValue(/"who": "second"/);
  const button = phone.getByRole("button", { name: "Relaunch" });
  await button.scrollIntoViewIfNeeded();
  await expect(button).toBeInViewport();
  const box = await phone.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);
  await shots(page, "relaunch-dialog-phone");
});

test("failed hosts only limits the relaunch to the failed host", async ({ page }) => {
  const first = (await bench.post(bench.url("runs"), {
    template_id: partial,
  })) as unknown as RunBody;
  expect((await bench.waitFinished(first.id)).status).toBe("failed");
  await page.goto(`/projects/${bench.projectId}/runs/${first.id}`);
  await page.getByRole("button", { name: "Relaunch" }).click();
  await page.getByRole("menuitem", { name: "Failed hosts only" }).click();
  const dialog = page.getByRole("dialog", { name: `Relaunch run #${first.id}` });
  await expect(dialog).toContainText("1 failed or unreachable: beta");
  await expect(dialog.getByRole("radio", { name: "Failed hosts only" })).toBeChecked();
  await shots(page, "relaunch-failed-hosts");
  await dialog.getByRole("button", { name: "Relaunch" }).click();
  const id = await newRunId(page, first.id);
  expect((await readRun(page, id)).params.limit).toBe("beta");
  expect((await bench.waitFinished(id)).status).toBe("failed");
});

test("the launch dialog takes extra vars as YAML and names the line of a mistake", async ({
  page,
}) => {
  await page.goto(`/projects/${bench.projectId}/templates`);
  await page.getByRole("button", { name: "Launch greet-launch" }).click();
  const dialog = page.getByRole("dialog", { name: "Launch “greet-launch”" });
  await dialog.getByLabel("Password").fill("another secret");
  const vars = dialog.getByRole("textbox", { name: "Extra vars" });
  await vars.fill("who: yaml\ndb_port: [5432\n");
  await dialog.getByRole("button", { name: "Launch" }).click();
  await expect(vars).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("line 2: not valid YAML");
  await shots(page, "launch-dialog-yaml-error");
  await vars.fill("who: yaml\ndb_port: 5432\n");
  await dialog.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  const id = Number(page.url().split("/").pop());
  expect((await readRun(page, id)).params.launch_vars).toEqual({ who: "yaml", db_port: 5432 });
  await bench.waitFinished(id);
});

test("the template form picks the playbook from those found in the repository", async ({
  page,
}) => {
  await page.goto(`/projects/${bench.projectId}/templates`);
  await page.getByRole("button", { name: "New template" }).click();
  const dialog = page.getByRole("dialog", { name: "New template" });
  await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("picked");
  await dialog.getByRole("textbox", { name: "Repository", exact: true }).click();
  await page.getByRole("option", { name: "playbooks", exact: true }).click();
  await dialog.getByRole("textbox", { name: "Inventory", exact: true }).click();
  await page.getByRole("option", { name: "localhost", exact: true }).click();
  await expect(dialog).toContainText("found in the repository, or type a path");
  const playbook = dialog.getByRole("textbox", { name: "Playbook" });
  // a path that is not there is refused on the field at save
  await playbook.fill("nope.yml");
  await dialog.getByRole("button", { name: "Create template" }).click();
  await expect(playbook).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("'nope.yml' is not in repository 'playbooks'");
  await playbook.fill("");
  await playbook.click();
  await expect(page.getByRole("option", { name: "greet.yml", exact: true })).toBeVisible();
  await expect(page.getByRole("option", { name: "vars.yml" })).toHaveCount(0);
  await shots(page, "template-playbook-picker");
  await page.getByRole("option", { name: "partial.yml", exact: true }).click();
  await expect(playbook).toHaveValue("partial.yml");
  await dialog.getByRole("button", { name: "Create template" }).click();
  await expect(dialog).toBeHidden();
  const listed = await page.request.get(bench.url("templates"));
  const items = ((await listed.json()) as { items: { name: string; playbook: string }[] }).items;
  expect(items.find((t) => t.name === "picked")?.playbook).toBe("partial.yml");

  // on a phone
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "New template" }).click();
  const phone = page.getByRole("dialog", { name: "New template" });
  await phone.getByRole("textbox", { name: "Repository", exact: true }).click();
  await page.getByRole("option", { name: "playbooks", exact: true }).click();
  await phone.getByRole("textbox", { name: "Playbook" }).click();
  await expect(page.getByRole("option", { name: "partial.yml", exact: true })).toBeVisible();
  await shots(page, "template-playbook-picker-phone");
});

test("a survey's options come from the inventory, follow an earlier answer, and a failing source says why", async ({
  page,
}) => {
  const listed = await page.request.get(bench.url(`templates/${greet}`));
  const template = (await listed.json()) as { repository_id: number };
  const grouped = await bench.post(bench.url("inventories"), {
    name: "grouped",
    kind: "static",
    format: "ini",
    content:
      `[db]\nalpha ansible_connection=local ansible_python_interpreter=${python}\n` +
      `[web]\nbeta ansible_connection=local ansible_python_interpreter=${python}\n`,
  });
  const choice = (variable: string, label: string, source: object, required = true) => ({
    variable,
    label,
    type: "choice",
    required,
    source,
  });
  await bench.post(bench.url("templates"), {
    name: "sourced",
    playbook: "greet.yml",
    repository_id: template.repository_id,
    inventory_id: grouped["id"],
    survey: [
      choice("tier", "Tier", { kind: "inventory", select: "groups", pattern: "db,web" }),
      choice("who", "Host", { kind: "inventory", pattern: "{answer.tier}" }),
      choice("table", "Table", { kind: "script", path: "bin/tables" }, false),
    ],
  });
  await page.goto(`/projects/${bench.projectId}/templates`);
  await page.getByRole("button", { name: "Launch sourced" }).click();
  const dialog = page.getByRole("dialog", { name: "Launch “sourced”" });
  // the host waits for the tier; the script is not in the repository: each says why
  await expect(dialog).toContainText("No options: needs an answer to 'tier' first");
  await expect(dialog).toContainText("No options: 'bin/tables' is not an executable file");
  await dialog.getByRole("textbox", { name: "Tier" }).click();
  await expect(page.getByRole("option", { name: "web", exact: true })).toBeVisible();
  await page.getByRole("option", { name: "db", exact: true }).click();
  await dialog.getByRole("textbox", { name: "Host" }).click();
  await expect(page.getByRole("option", { name: "alpha", exact: true })).toBeVisible();
  await expect(page.getByRole("option", { name: "beta", exact: true })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await shots(page, "launch-dialog-sourced");
  // another tier, other hosts (cascading)
  await dialog.getByRole("textbox", { name: "Tier" }).click();
  await page.getByRole("option", { name: "web", exact: true }).click();
  await dialog.getByRole("textbox", { name: "Host" }).click();
  await expect(page.getByRole("option", { name: "alpha", exact: true })).toHaveCount(0);
  await page.getByRole("option", { name: "beta", exact: true }).click();
  await dialog.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  const id = Number(page.url().split("/").pop());
  expect((await readRun(page, id)).params.launch_vars).toEqual({ tier: "web", who: "beta" });
  await bench.waitFinished(id);

  // the relaunch reads the options too; on a phone the dialog fills the screen
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Relaunch" }).click();
  await page.getByRole("menuitem", { name: "All hosts" }).click();
  const again = page.getByRole("dialog", { name: `Relaunch run #${id}` });
  await expect(again).toContainText("No options: 'bin/tables' is not an executable file");
  await again.getByRole("textbox", { name: "Host" }).click();
  await expect(page.getByRole("option", { name: "beta", exact: true })).toBeVisible();
  await expect(page.getByRole("option", { name: "alpha", exact: true })).toHaveCount(0);
  await page.keyboard.press("Escape");
  expect((await again.boundingBox())?.width).toBeLessThanOrEqual(390);
  await shots(page, "relaunch-dialog-sourced-phone");
  await page.keyboard.press("Escape");
  await expect(again).toHaveCount(0);
  await page.goto(`/projects/${bench.projectId}/templates`);
  await page.getByRole("button", { name: "Launch sourced" }).click();
  const phone = page.getByRole("dialog", { name: "Launch “sourced”" });
  await expect(phone).toContainText("No options: needs an answer to 'tier' first");
  await phone.getByRole("textbox", { name: "Tier" }).click();
  const option = page.getByRole("option", { name: "web", exact: true });
  await expect(option).toBeInViewport();
  expect((await phone.boundingBox())?.width).toBeLessThanOrEqual(390);
  await shots(page, "launch-dialog-sourced-phone");
});

test("during a project's freeze of a label the launch dialog and the dashboard say so; an override launches with a reason", async ({
  page,
}) => {
  // the window freezes the templates labelled prod: greet is one
  await bench.patch(bench.url(`templates/${greet}`), { labels: ["prod"] });
  const wallClock = (offsetHours: number) =>
    new Date(Date.now() + offsetHours * 3600_000).toISOString().slice(0, 16);
  // made on the project's Freezes page
  await page.goto(`/projects/${bench.projectId}/freezes`);
  await page.getByRole("button", { name: "New freeze window" }).click();
  const form = page.getByRole("dialog", { name: "New freeze window" });
  await form.getByRole("textbox", { name: "Name" }).fill("Change freeze");
  await form.getByLabel("Starts").fill(wallClock(-1));
  await form.getByLabel("Ends").fill(wallClock(2));
  await form.getByRole("textbox", { name: "Time zone" }).fill("UTC");
  await form.getByRole("textbox", { name: "Template labels" }).fill("Prod");
  await form.getByRole("textbox", { name: "Template labels" }).press("Enter");
  await form.getByRole("button", { name: "Create window" }).click();
  await expect(form).toBeHidden();
  const windows = page.getByRole("table", { name: "Freeze windows" });
  await expect(windows).toContainText("Change freeze");
  await expect(windows.getByRole("row", { name: /Change freeze/ })).toContainText("prod");
  await page.goto(`/projects/${bench.projectId}/templates`);
  // a label's badge filters the list to the templates carrying it (?label=prod)
  await page.getByRole("button", { name: "Filter by label prod" }).click();
  await expect(page).toHaveURL(/[?&]label=prod/);
  const listed = page.getByRole("table", { name: "Templates" });
  await expect(page.getByText("Only templates labelled")).toBeVisible();
  await expect(listed.getByRole("row")).toHaveCount(2); // the header and greet-launch
  await page.getByRole("button", { name: "Show every template" }).click();
  await expect(listed.getByRole("row")).not.toHaveCount(2);
  await page.getByRole("button", { name: "Launch greet-launch" }).click();
  const dialog = page.getByRole("dialog", { name: "Launch “greet-launch”" });
  await expect(dialog.getByRole("alert")).toContainText("Frozen: “Change freeze” until");
  await expect(dialog.getByRole("alert")).toContainText("labelled prod");
  await dialog.getByLabel("Password").fill("a secret");
  await dialog.getByRole("textbox", { name: "Override reason" }).fill("INC-42: the outage fix");
  await shots(page, "launch-dialog-freeze-override");
  await dialog.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  const id = Number(page.url().split("/").pop());
  const audit = await page.request.get(
    `/api/v1/audit?project_id=${bench.projectId}&action=freeze:override`,
  );
  expect(JSON.stringify(await audit.json())).toContain("INC-42: the outage fix");
  await page.goto("/");
  await expect(page.getByRole("alert").filter({ hasText: "Change freeze" })).toBeVisible();
  await bench.waitFinished(id);

  // the relaunch dialog says so too, and asks the reason: a blank one is refused on its field
  await page.goto(`/projects/${bench.projectId}/runs/${id}`);
  await page.getByRole("button", { name: "Relaunch" }).click();
  await page.getByRole("menuitem", { name: "All hosts" }).click();
  const again = page.getByRole("dialog", { name: `Relaunch run #${id}` });
  await expect(again.getByRole("alert").first()).toContainText("Frozen: “Change freeze” until");
  const reason = again.getByRole("textbox", { name: "Override reason" });
  await reason.fill("   ");
  await again.getByRole("button", { name: "Relaunch" }).click();
  await expect(again).toContainText("a reason is required to launch during freeze");
  await expect(reason).toHaveAttribute("aria-invalid", "true");
  await reason.fill("INC-43: the fix, again");
  await shots(page, "relaunch-dialog-freeze-override");
  await again.getByRole("button", { name: "Relaunch" }).click();
  const relaunched = await newRunId(page, id);
  const audited = await page.request.get(
    `/api/v1/audit?project_id=${bench.projectId}&action=freeze:override`,
  );
  expect(JSON.stringify(await audited.json())).toContain("INC-43: the fix, again");
  await bench.waitFinished(relaunched);
});
