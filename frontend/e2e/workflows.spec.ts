// Workflows in the console, against the real server and real ansible-playbook runs: a workflow
// made in the editor (an approval, then a template run on success), drawn as it is typed,
// launched, its Approve button disabled for the admin who launched it (the approval wants
// someone else, by default), approved with a comment by an operator, ended successful, its
// node's run linking back to the workflow run. A node's launch values set in the editor (the
// template launch dialog's fields: limit, extra vars, survey answers, a secret one kept as
// "set", a question's options read from the inventory), a server refusal shown on the node's
// field, and the values used by the node's run. Then the same on a phone: a node's launch
// values changed, launched from the list, approved by its launcher (the approval lets them),
// nothing wider than the screen. Plan and apply nodes made in the editor (the apply node picks
// its plan node), the apply refused after a template edit, the refusal on its row.
import { type Locator, type Page, expect, test } from "@playwright/test";
import {
  type AdminApi,
  adminApi,
  makeUser,
  overflowing,
  playbookProject,
  shots,
  openAs,
  PASSWORD,
} from "./admin-api.ts";

const HELLO = `- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: "shipping"
`;

let api: AdminApi;
const tag = Date.now().toString(36);
const PROJECT = `workflows-${tag}`;
// what a node's launch values reach: its survey answers and extra vars, in the run's output
const DEPLOY = `- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: "release {{ release }} by {{ who | default('nobody') }}, secret of {{ db_password | default('') | length }} chars"
`;
const DEPLOY_SURVEY = [
  { variable: "release", label: "Release", type: "text", required: true },
  { variable: "db_password", label: "DB password", type: "password", required: false },
  // its options from the inventory, offered in the node's dialog as in the launch dialog
  {
    variable: "target",
    label: "Target",
    type: "choice",
    required: false,
    source: { kind: "inventory", pattern: "all" },
  },
];

let projectId = 0;
let templateId = 0;
let deployId = 0;
const APPROVER = `approver-${tag}`;

const url = (path: string) => `/api/v1/projects/${projectId}/${path}`;

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL);
  const made = await playbookProject(api, PROJECT, { "ship.yml": HELLO, "deploy.yml": DEPLOY });
  projectId = made.projectId;
  templateId = (
    await api.send<{ id: number }>("POST", url("templates"), {
      name: "ship",
      playbook: "ship.yml",
      repository_id: made.repositoryId,
      inventory_id: made.inventoryId,
    })
  ).id;
  deployId = (
    await api.send<{ id: number }>("POST", url("templates"), {
      name: "deploy",
      playbook: "deploy.yml",
      repository_id: made.repositoryId,
      inventory_id: made.inventoryId,
      overridable: ["limit", "extra_vars"],
      survey: DEPLOY_SURVEY,
    })
  ).id;
  const approver = await makeUser(api, APPROVER);
  await api.send("PUT", url("members"), { user_id: approver, role: "operator" });
});

test.afterAll(async () => {
  await api.context.dispose();
});

async function pick(page: Page, input: Locator, option: string) {
  await input.click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** Approve the node `key` on the workflow run page as `by` (signed in), then wait for the run
 * to succeed. */
async function approveAndFinish(page: Page, key: string, comment: string, by = "admin") {
  const nodes = page.getByRole("table", { name: "Nodes" });
  const gate = nodes.getByRole("row").filter({ hasText: key }).first();
  await expect(gate).toContainText("waiting");
  await gate.getByRole("button", { name: `Approve ${key}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("textbox", { name: /Comment/ }).fill(comment);
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toBeHidden();
  await expect(gate).toContainText(`approved by ${by}: ${comment}`);
  await expect(
    page.getByRole("heading", { name: /Workflow run #\d+/ }).locator(".."),
  ).toContainText("successful", { timeout: 45_000 });
}

/** The output of the run of the node `key` (the workflow run page is open), once it ended. */
async function nodeRunOutput(page: Page, key: string) {
  const nodes = page.getByRole("table", { name: "Nodes" });
  await nodes.getByRole("row").filter({ hasText: key }).getByRole("link").click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  const runId = Number(/\/runs\/(\d+)$/.exec(page.url())?.[1]);
  return { runId, log: page.getByRole("region", { name: "Run output" }) };
}

test("a workflow: made in the editor, launched, approved, successful; its run links back", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openAs(page, `/projects/${projectId}`);
  await page
    .getByRole("tablist", { name: "Project sections" })
    .getByRole("tab", { name: "Workflows" })
    .click();
  await expect(page.getByText("No workflows yet.")).toBeVisible();
  await page.getByRole("button", { name: "New workflow" }).click();
  await expect(page.getByRole("heading", { name: "New workflow" })).toBeVisible();

  await page.getByRole("textbox", { name: "Name" }).fill("release");
  await page.getByRole("button", { name: "Add approval" }).click();
  // separation of duties: on by default, explained
  const separate = page
    .getByRole("group", { name: "Node 1" })
    .getByRole("checkbox", { name: "Someone other than the launcher must approve" });
  await expect(separate).toBeChecked();
  await page.getByRole("button", { name: "Add template run" }).click();
  const step = page.getByRole("group", { name: "Node 2" });
  // saving without a template: the field says why, before anything is sent
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(step).toContainText("pick a template");
  await pick(page, step.getByRole("textbox", { name: "Template" }), "ship");
  await page.getByRole("button", { name: "Add edge" }).click();
  const edge = page.getByRole("group", { name: "Edge 1" });
  await expect(edge.getByRole("textbox", { name: "From" })).toHaveValue("approval-1");
  await expect(edge.getByRole("textbox", { name: "To" })).toHaveValue("step-1");
  const graph = page.getByRole("img", { name: "Workflow graph of 2 nodes" });
  await expect(graph).toBeVisible();
  await expect(graph.locator("path[marker-end]")).toHaveCount(1);
  await shots(page, "workflows-editor");
  await page.getByRole("button", { name: "Create workflow" }).click();

  // the workflow's page: launch it
  await expect(page.getByRole("heading", { name: "release" })).toBeVisible();
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(page.getByRole("heading", { name: /Workflow run #\d+/ })).toBeVisible();
  await expect(page.locator('g[data-node="approval-1"]')).toHaveAttribute("data-status", "waiting");
  // the admin launched it: Approve is disabled, saying why and who may; another approves
  const gate = page
    .getByRole("table", { name: "Nodes" })
    .getByRole("row")
    .filter({ hasText: "approval-1" })
    .first();
  await expect(gate.getByRole("button", { name: "Approve approval-1" })).toBeDisabled();
  await expect(gate.getByRole("button", { name: "Deny approval-1" })).toBeEnabled();
  await expect(gate.getByRole("note")).toHaveText(
    "the approval of node 'approval-1' needs someone other than admin, who launched this run",
  );
  await expect(gate).toContainText("May approve: a global admin or a project operator");
  const runPage = page.url();
  await page.context().clearCookies(); // signed out: in again as another person
  await openAs(page, runPage, APPROVER, PASSWORD);
  await approveAndFinish(page, "approval-1", "ship it", APPROVER);
  await page.context().clearCookies();
  await openAs(page, runPage);
  await expect(page.locator('g[data-node="step-1"]')).toHaveAttribute("data-status", "successful");
  await shots(page, "workflows-run");

  // the node's run is a normal run, and it links back to the workflow run
  const workflowRunUrl = page.url();
  const nodes = page.getByRole("table", { name: "Nodes" });
  await nodes.getByRole("row").filter({ hasText: "step-1" }).getByRole("link").click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  const back = page.getByRole("link", { name: /^workflow run \d+$/ }).first();
  await expect(back).toBeVisible();
  await back.click();
  await expect(page).toHaveURL(workflowRunUrl);

  const runs = await api.send<{ items: { status: string; launched_by: string }[] }>(
    "GET",
    url("workflow-runs"),
  );
  expect(runs.items.map((w) => [w.status, w.launched_by])).toEqual([["successful", "admin"]]);
});

test("a node's launch values: set in the editor, refused on its field, used by its run", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openAs(page, `/projects/${projectId}/workflows`);
  await page.getByRole("button", { name: "New workflow" }).click();
  await page.getByRole("textbox", { name: "Name" }).fill("configured");
  await page.getByRole("button", { name: "Add template run" }).click();
  const step = page.getByRole("group", { name: "Node 1" });
  await pick(page, step.getByRole("textbox", { name: "Template" }), "deploy");
  await expect(step).toContainText("the template’s");
  // its required answer is missing: the server's 422 lands on the node, then on the field
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(step.getByRole("alert")).toContainText("survey.release: an answer is required");
  await step.getByRole("button", { name: "Launch values of step-1" }).click();
  let dialog = page.getByRole("dialog", { name: "Launch values of “step-1”" });
  const release = dialog.getByRole("textbox", { name: /Release/ });
  await expect(release).toHaveAccessibleDescription("an answer is required");
  // the template launch dialog's fields: only what the template lets a launch override
  await expect(dialog.getByRole("textbox", { name: "Tags" })).toHaveCount(0);
  await release.fill("v7");
  await dialog.getByLabel("DB password").fill("s3cret");
  await pick(page, dialog.getByRole("textbox", { name: "Target" }), "localhost");
  await dialog.getByRole("textbox", { name: "Limit" }).fill("local*");
  await dialog.getByRole("textbox", { name: "Extra vars" }).fill("who: ops");
  await shots(page, "workflows-node-launch");
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog).toBeHidden();
  await expect(step.getByRole("alert")).toHaveCount(0);
  await expect(step).toContainText(
    "limit local* · extra vars: who · answers: release, db_password, target",
  );
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByRole("heading", { name: "configured" })).toBeVisible();

  // saved: the secret answer reads back as set, never shown
  const saved = page.getByRole("group", { name: "Node 1" });
  await saved.getByRole("button", { name: "Launch values of step-1" }).click();
  dialog = page.getByRole("dialog", { name: "Launch values of “step-1”" });
  await expect(dialog.getByRole("textbox", { name: /Release/ })).toHaveValue("v7");
  await expect(dialog.getByRole("textbox", { name: "Target" })).toHaveValue("localhost");
  await expect(dialog.getByLabel("DB password")).toHaveValue("");
  await expect(dialog.getByText("Set (never shown); type to replace it")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(page.getByRole("heading", { name: /Workflow run #\d+/ })).toBeVisible();
  await expect(
    page.getByRole("heading", { name: /Workflow run #\d+/ }).locator(".."),
  ).toContainText("successful", { timeout: 45_000 });
  // each node: its duration, a link to its run
  const row = page
    .getByRole("table", { name: "Nodes" })
    .getByRole("row")
    .filter({ hasText: "step-1" });
  await expect(row).toContainText(/\d+ s/);
  const { runId, log } = await nodeRunOutput(page, "step-1");
  await expect(log).toContainText("release v7 by ops, secret of 6 chars", { timeout: 15_000 });
  const run = await api.send<{ params: { limit: string } }>("GET", url(`runs/${runId}`));
  expect(run.params.limit).toBe("local*");
});

test("on a phone: launch values changed, launched from the list, approved, nothing wider than the screen", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const made = await api.send<{ id: number }>("POST", url("workflows"), {
    name: "phone-release",
    nodes: [
      // its launcher may approve it
      { key: "gate", kind: "approval", name: "Ship from the phone?", approver_must_differ: false },
      {
        key: "ship",
        kind: "template",
        template_id: deployId,
        launch: { survey: { release: "p1" } },
      },
      { key: "after-no", kind: "template", template_id: templateId },
    ],
    edges: [
      { from: "gate", to: "ship", on: "success" },
      { from: "gate", to: "after-no", on: "failure" },
    ],
  });
  await page.setViewportSize({ width: 390, height: 844 });
  // the editor: the ship node's release changed in its launch values dialog (full screen)
  await openAs(page, `/projects/${projectId}/workflows/${made.id}`);
  await expect(page.getByRole("heading", { name: "phone-release" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Workflow graph of 3 nodes" })).toBeVisible();
  expect(await overflowing(page), "editor").toEqual([]);
  await shots(page, "workflows-phone-editor");
  await page.getByRole("button", { name: "Launch values of ship" }).click();
  const dialog = page.getByRole("dialog", { name: "Launch values of “ship”" });
  await dialog.getByRole("textbox", { name: /Release/ }).fill("phone-7");
  await shots(page, "workflows-phone-node-launch");
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Save workflow" }).click();
  await expect(page.getByText("Workflow “phone-release” saved")).toBeVisible();
  expect(await overflowing(page), "editor, saved").toEqual([]);

  await page.goto(`/projects/${projectId}/workflows`);
  await expect(page.getByRole("table", { name: "Workflows" })).toBeVisible();
  expect(await overflowing(page), "list").toEqual([]);
  await shots(page, "workflows-phone-list");
  await page.getByRole("button", { name: "Launch phone-release" }).click();
  await expect(page.getByRole("heading", { name: /Workflow run #\d+/ })).toBeVisible();
  expect(await overflowing(page), "run").toEqual([]);
  await approveAndFinish(page, "gate", "from the phone");
  const nodes = page.getByRole("table", { name: "Nodes" });
  await expect(nodes.getByRole("row").filter({ hasText: "after-no" })).toContainText("skipped");
  expect(await overflowing(page), "finished run").toEqual([]);
  await shots(page, "workflows-phone-run");
  const { log } = await nodeRunOutput(page, "ship");
  await expect(log).toContainText("release phone-7 by nobody", { timeout: 15_000 });
});

test("plan and apply nodes: made in the editor, the apply refused after a template edit, saying why", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await api.send("PATCH", url(`templates/${templateId}`), { plans_allowed: true });
  await openAs(page, `/projects/${projectId}`);
  await page
    .getByRole("tablist", { name: "Project sections" })
    .getByRole("tab", { name: "Workflows" })
    .click();
  await page.getByRole("button", { name: "New workflow" }).click();
  await page.getByRole("textbox", { name: "Name" }).fill("plan-apply");
  await expect(page.getByRole("button", { name: "Add apply" })).toBeDisabled(); // no plan yet
  await page.getByRole("button", { name: "Add plan" }).click();
  const plan = page.getByRole("group", { name: "Node 1" });
  await pick(page, plan.getByRole("textbox", { name: "Template to plan" }), "ship");
  await page.getByRole("button", { name: "Add approval" }).click();
  await page
    .getByRole("group", { name: "Node 2" })
    .getByRole("checkbox", { name: "Someone other than the launcher must approve" })
    .uncheck();
  await page.getByRole("button", { name: "Add apply" }).click();
  const apply = page.getByRole("group", { name: "Node 3" });
  await expect(apply.getByRole("textbox", { name: "Plan node" })).toHaveValue("plan-1");
  await page.getByRole("button", { name: "Add edge" }).click();
  await page.getByRole("button", { name: "Add edge" }).click();
  const first = page.getByRole("group", { name: "Edge 1" });
  await pick(page, first.getByRole("textbox", { name: "From" }), "plan-1");
  await pick(page, first.getByRole("textbox", { name: "To" }), "approval-1");
  const second = page.getByRole("group", { name: "Edge 2" });
  await pick(page, second.getByRole("textbox", { name: "From" }), "approval-1");
  await pick(page, second.getByRole("textbox", { name: "To" }), "apply-1");
  await expect(page.getByRole("img", { name: "Workflow graph of 3 nodes" })).toContainText(
    "apply: the plan of 'plan-1'",
  );
  await page.getByRole("button", { name: "Create workflow" }).click();

  await expect(page.getByRole("heading", { name: "plan-apply" })).toBeVisible();
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(page.getByRole("heading", { name: /Workflow run #\d+/ })).toBeVisible();
  const nodes = page.getByRole("table", { name: "Nodes" });
  await expect(nodes.getByRole("row").filter({ hasText: "approval-1" })).toContainText("waiting", {
    timeout: 45_000,
  });
  // the template edited while the plan waits: its apply is refused
  await api.send("PATCH", url(`templates/${templateId}`), { extra_vars: { edited: 1 } });
  const gate = nodes.getByRole("row").filter({ hasText: "approval-1" }).first();
  await gate.getByRole("button", { name: "Approve approval-1" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
  const applied = nodes.getByRole("row").filter({ hasText: "apply-1" });
  await expect(applied).toContainText("failed", { timeout: 30_000 });
  await expect(applied).toContainText(/changed since plan \d+: plan again/);
  await expect(applied).toContainText("apply: the plan of 'plan-1'");
  await shots(page, "workflows-apply-refused");
  await api.send("PATCH", url(`templates/${templateId}`), { extra_vars: {}, plans_allowed: false });
});
