// Schedules, webhooks and notifications in the console, against the real server: a schedule
// previewed in its zone and the viewer's (another one, set on the browser), a survey answer
// picked from options read from the inventory, and edited without losing its weekdays; a
// webhook tested from the console with its delivery recorded; a notification destination
// posting to a receiver on 127.0.0.1 (and one to a closed port), tested, with the attempts
// shown. At desktop and phone width, and read-only for a viewer.
import { type Page, expect, test } from "@playwright/test";
import { type IncomingHttpHeaders, type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
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
        msg: "rman check of {{ db }}"
`;
// the browser's zone; schedules are made in another one
const VIEWER_ZONE = "America/New_York";
test.use({ timezoneId: VIEWER_ZONE, locale: "en-GB" });

let api: AdminApi;
const tag = Date.now().toString(36);
const PROJECT = `triggers-${tag}`;
const VIEWER = `vera-${tag}`;
const TEMPLATE = "rman-check";
let projectId = 0;
let templateId = 0;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let receiver: Server;
const received: Received[] = [];

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL);
  const made = await playbookProject(api, PROJECT, { "rman.yml": HELLO });
  projectId = made.projectId;
  const url = (path: string) => `/api/v1/projects/${projectId}/${path}`;
  const template = await api.send<{ id: number }>("POST", url("templates"), {
    name: TEMPLATE,
    playbook: "rman.yml",
    repository_id: made.repositoryId,
    inventory_id: made.inventoryId,
    overridable: ["limit"],
    survey: [
      { variable: "db", label: "Database", description: "", type: "text", required: true },
      // options from the inventory: the schedule form offers them as the launch dialog does
      {
        variable: "node",
        label: "Node",
        type: "choice",
        required: false,
        source: { kind: "inventory", pattern: "all" },
      },
    ],
  });
  templateId = template.id;
  await api.send("POST", url("keys"), {
    name: "hook-secret",
    kind: "secret",
    value: "s3cret-hook",
  });
  await api.send("POST", url("keys"), { name: "notify-secret", kind: "secret", value: "n0tify" });
  const viewer = await makeUser(api, VIEWER);
  await api.send("PUT", url("members"), { user_id: viewer, role: "viewer" });

  // a real HTTP receiver for the notification destination
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", done));
});

test.afterAll(async () => {
  await api.context.dispose();
  await new Promise((done) => receiver.close(done));
});

async function pickOption(page: Page, input: ReturnType<Page["getByRole"]>, option: string) {
  await input.click();
  await input.fill(option);
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** The weekday of each row of the preview, in the column `index` (1: the schedule's zone). */
async function previewDays(page: Page, index: number): Promise<string[]> {
  const rows = page.getByRole("table", { name: "Next runs" }).getByRole("row");
  const count = await rows.count();
  const days: string[] = [];
  for (let i = 1; i < count; i++) {
    const text = await rows.nth(i).getByRole("cell").nth(index).innerText();
    days.push(text.slice(0, 3));
  }
  return days;
}

test("a schedule: previewed in its zone and the viewer's, edited without losing weekdays", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openAs(page, `/projects/${projectId}/templates`);
  await page.getByRole("link", { name: TEMPLATE }).click();
  await expect(page.getByRole("heading", { name: TEMPLATE })).toBeVisible();
  const sections = page.getByRole("tablist", { name: "Template sections" });
  await expect(sections.getByRole("tab", { name: "Schedules" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await page.getByRole("button", { name: "New schedule" }).click();
  const dialog = page.getByRole("dialog", { name: "New schedule" });
  // the viewer's zone is the default
  await expect(dialog.getByRole("textbox", { name: "Time zone" })).toHaveValue(
    `${VIEWER_ZONE} (your zone)`,
  );
  await dialog.getByRole("textbox", { name: "Name" }).fill("nightly-rman");
  const expression = dialog.getByRole("textbox", { name: /Cron expression/ });
  // the server's refusal lands on the field
  await expression.fill("61 2 * * 1,3,5");
  await pickOption(page, dialog.getByRole("textbox", { name: "Time zone" }), "Europe/Berlin");
  await dialog.getByRole("textbox", { name: /Database/ }).fill("ORCL");
  const node = dialog.getByRole("textbox", { name: "Node" });
  await expect(dialog).toContainText("Options from the inventory");
  await node.click();
  await page.getByRole("option", { name: "localhost", exact: true }).click();
  await expect(node).toHaveValue("localhost");
  // the live preview says why while typing, before any save
  await expect(
    dialog.getByRole("alert").filter({ hasText: "is not a valid cron expression" }),
  ).toBeVisible();
  await dialog.getByRole("button", { name: "Create schedule" }).click();
  await expect(expression).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("is not a valid cron expression");
  await expression.scrollIntoViewIfNeeded();
  await shots(page, "triggers-schedule-form-error");
  await expression.fill("30 2 * * 1,3,5");
  const typed = dialog.getByRole("table", { name: "Next runs" });
  await expect(typed.getByRole("row")).toHaveCount(6); // the header and the next five
  await expect(typed.getByRole("row").nth(1).getByRole("cell").nth(1)).toContainText(/ 02:30 /);
  await dialog.getByRole("button", { name: "Create schedule" }).click();
  await expect(dialog).toBeHidden();

  // the schedule's page: the next runs at 02:30 Berlin on Mon/Wed/Fri, and in New York
  await expect(page.getByRole("heading", { name: "nightly-rman" })).toBeVisible();
  const preview = page.getByRole("table", { name: "Next runs" });
  await expect(
    preview.getByRole("columnheader", { name: "Schedule: Europe/Berlin" }),
  ).toBeVisible();
  await expect(preview.getByRole("columnheader", { name: `You: ${VIEWER_ZONE}` })).toBeVisible();
  await expect(preview.getByRole("row")).toHaveCount(11);
  for (let i = 1; i <= 10; i++) {
    const cells = preview.getByRole("row").nth(i).getByRole("cell");
    await expect(cells.nth(1)).toContainText(/ 02:30 \(UTC\+0[12]:00\)$/);
    await expect(cells.nth(2)).toContainText(/\(UTC-0[45]:00\)$/);
  }
  const weekdays = new Set(["Mon", "Wed", "Fri"]);
  expect((await previewDays(page, 1)).every((day) => weekdays.has(day))).toBe(true);
  await shots(page, "triggers-schedule");

  // edit something else: the expression and its weekdays stay
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = page.getByRole("dialog", { name: "Edit schedule “nightly-rman”" });
  await expect(edit.getByRole("textbox", { name: /Cron expression/ })).toHaveValue(
    "30 2 * * 1,3,5",
  );
  await expect(edit.getByRole("textbox", { name: /Database/ })).toHaveValue("ORCL");
  await expect(edit.getByRole("textbox", { name: "Node" })).toHaveValue("localhost");
  await edit.getByRole("textbox", { name: "Description" }).fill("RMAN validate, Mon/Wed/Fri");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText("RMAN validate, Mon/Wed/Fri")).toBeVisible();
  await expect(page.getByText("30 2 * * 1,3,5", { exact: true })).toBeVisible();
  expect((await previewDays(page, 1)).every((day) => weekdays.has(day))).toBe(true);
  const stored = await api.send<{
    items: { expression: string; timezone: string; launch: { survey: object } }[];
  }>("GET", `/api/v1/projects/${projectId}/schedules`);
  expect(stored.items.map((s) => [s.expression, s.timezone, s.launch.survey])).toEqual([
    ["30 2 * * 1,3,5", "Europe/Berlin", { db: "ORCL", node: "localhost" }],
  ]);

  // the project's list: the schedule, its template, its next run
  await page
    .getByRole("tablist", { name: "Project sections" })
    .getByRole("tab", { name: "Schedules" })
    .click();
  const list = page.getByRole("table", { name: "Schedules" });
  await expect(list.getByRole("link", { name: "nightly-rman" })).toBeVisible();
  await expect(list.getByRole("link", { name: TEMPLATE })).toBeVisible();
  await expect(list.getByText("On", { exact: true })).toBeVisible();
  await shots(page, "triggers-schedules");
});

test("a webhook: its URL, a test delivery, then a real launch, in its deliveries", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openAs(page, `/projects/${projectId}/templates/${templateId}?tab=webhooks`);
  await page.getByRole("button", { name: "New webhook" }).click();
  const dialog = page.getByRole("dialog", { name: "New webhook" });
  await dialog.getByRole("textbox", { name: "Name" }).fill("on-push");
  await dialog.getByRole("textbox", { name: "Secret" }).click();
  await page.getByRole("option", { name: "hook-secret" }).click();
  await dialog.getByRole("button", { name: "Add condition" }).click();
  await dialog.getByRole("textbox", { name: "Condition 1 source" }).click();
  await page.getByRole("option", { name: "Header" }).click();
  await dialog.getByRole("textbox", { name: "Condition 1 path" }).fill("X-GitHub-Event");
  await dialog.getByRole("textbox", { name: "Condition 1 value" }).fill("push");
  await dialog.getByRole("button", { name: "Add condition" }).click();
  await dialog.getByRole("textbox", { name: "Condition 2 path" }).fill("ref");
  await dialog.getByRole("textbox", { name: "Condition 2 value" }).fill("refs/heads/main");
  await dialog.getByRole("button", { name: "Add variable" }).click();
  await dialog.getByRole("textbox", { name: "Variable 1 name" }).fill("db");
  // a path the server refuses, shown under the editor
  await dialog.getByRole("textbox", { name: "Variable 1 body path" }).fill("repository..name");
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  await expect(dialog.getByText(/db: /)).toBeVisible();
  await dialog.getByRole("textbox", { name: "Variable 1 body path" }).fill("repository.full_name");
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByRole("heading", { name: "on-push" })).toBeVisible();
  const hookUrl = page.getByLabel("Receive URL", { exact: true });
  await expect(hookUrl).toContainText("/api/v1/hooks/");
  await expect(page.getByRole("button", { name: "Copy the receive URL" })).toBeVisible();
  await expect(page.getByText("No delivery yet.")).toBeVisible();

  // a dry run: matched, nothing launched
  await page.getByRole("button", { name: "Send test delivery" }).click();
  const test1 = page.getByRole("dialog", { name: "Test delivery to “on-push”" });
  await test1.getByRole("button", { name: "Send test delivery" }).click();
  const result = test1.getByRole("status");
  await expect(result).toContainText("matched");
  await expect(result).toContainText('"db": "example/site"');
  await shots(page, "triggers-webhook-test");
  // the same, really launched
  await test1.getByRole("switch", { name: /Really launch the run/ }).check();
  await test1.getByRole("button", { name: "Send and launch" }).click();
  await expect(result).toContainText("launched");
  const runLink = result.getByRole("link", { name: /Run #\d+/ });
  await expect(runLink).toBeVisible();
  await test1.getByRole("button", { name: "Cancel" }).click();

  const deliveries = page.getByRole("table", { name: "Deliveries" });
  await expect(deliveries.getByRole("row")).toHaveCount(3);
  await expect(deliveries.getByRole("row").nth(1)).toContainText("launched");
  await expect(deliveries.getByRole("row").nth(1)).toContainText("test");
  await expect(deliveries.getByRole("row").nth(2)).toContainText("matched");
  await deliveries.getByRole("row").nth(2).getByRole("button").click();
  const drawer = page.getByRole("dialog", { name: /Delivery \d+/ });
  await expect(drawer.getByRole("table", { name: "Headers" })).toContainText("x-github-event");
  await expect(drawer.getByRole("table", { name: "Headers" })).toContainText("********");
  await expect(drawer).toContainText('"ref": "refs/heads/main"');
  await expect(drawer).not.toContainText("s3cret-hook");
  await shots(page, "triggers-webhook-delivery");
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await shots(page, "triggers-webhook");

  // the run says which webhook launched it
  await deliveries
    .getByRole("row")
    .nth(1)
    .getByRole("link", { name: /Run #\d+/ })
    .click();
  await expect(page.getByText(/via webhook/)).toBeVisible();
  await page.getByRole("link", { name: /^webhook \d+$/ }).click();
  await expect(page.getByRole("heading", { name: "on-push" })).toBeVisible();
});

test("a webhook of a workflow: made in the console, its delivery launches a workflow run", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const workflow = await api.send<{ id: number }>(
    "POST",
    `/api/v1/projects/${projectId}/workflows`,
    {
      name: "release-train",
      nodes: [
        {
          key: "check",
          kind: "template",
          template_id: templateId,
          launch: { survey: { db: "ORCL" } },
        },
      ],
      edges: [],
    },
  );
  await openAs(page, `/projects/${projectId}/webhooks`);
  await page.getByRole("button", { name: "New webhook" }).click();
  const dialog = page.getByRole("dialog", { name: "New webhook" });
  await dialog.getByText("Workflow", { exact: true }).click();
  // a workflow's nodes carry their own launch values: nothing is taken from the body
  await expect(dialog.getByRole("button", { name: "Add variable" })).toHaveCount(0);
  await expect(dialog.getByRole("textbox", { name: "Ref from" })).toHaveCount(0);
  await dialog.getByRole("textbox", { name: "Name" }).fill("on-release");
  await dialog.getByRole("textbox", { name: "Secret" }).click();
  await page.getByRole("option", { name: "hook-secret" }).click();
  // the target is required
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  await expect(dialog.getByText("Pick the workflow to launch")).toBeVisible();
  await pickOption(page, dialog.getByRole("textbox", { name: "Workflow" }), "release-train");
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByRole("heading", { name: "on-release" })).toBeVisible();
  await expect(page.getByRole("link", { name: "release-train" })).toHaveAttribute(
    "href",
    `/projects/${projectId}/workflows/${workflow.id}`,
  );
  await page.getByRole("button", { name: "Send test delivery" }).click();
  const sent = page.getByRole("dialog", { name: "Test delivery to “on-release”" });
  await sent.getByRole("switch", { name: /Really launch the run/ }).check();
  await sent.getByRole("button", { name: "Send and launch" }).click();
  const result = sent.getByRole("status");
  await expect(result).toContainText("launched");
  await expect(result).toContainText(/launched workflow run \d+/);
  await sent.getByRole("button", { name: "Cancel" }).click();

  const deliveries = page.getByRole("table", { name: "Deliveries" });
  await expect(deliveries.getByRole("row").nth(1)).toContainText("launched");
  await shots(page, "triggers-webhook-workflow");
  await deliveries
    .getByRole("row")
    .nth(1)
    .getByRole("link", { name: /Workflow run #\d+/ })
    .click();
  // the workflow run appears, its node's real run ends successful
  await expect(
    page.getByRole("heading", { name: /Workflow run #\d+ · release-train/ }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: /Workflow run/ }).locator("..")).toContainText(
    "successful",
    { timeout: 60_000 },
  );
  const runs = await api.send<{ items: { launch_type: string; webhook_id: number | null }[] }>(
    "GET",
    `/api/v1/projects/${projectId}/workflow-runs`,
  );
  expect(runs.items[0]?.launch_type).toBe("webhook");

  // the project's webhooks list the workflow as what it launches, with a link
  await page.goto(`/projects/${projectId}/webhooks`);
  const row = page.getByRole("row").filter({ hasText: "on-release" });
  await expect(row.getByRole("link", { name: "release-train" })).toBeVisible();
  await expect(row).toContainText("workflow");
});

test("notifications: a destination on 127.0.0.1 tested, one on a closed port failing", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const port = (receiver.address() as AddressInfo).port;
  await openAs(page, `/projects/${projectId}/notifications`);
  await page.getByRole("button", { name: "New destination" }).click();
  const dialog = page.getByRole("dialog", { name: "New destination" });
  await dialog.getByRole("textbox", { name: "Kind" }).click();
  await page.getByRole("option", { name: "JSON webhook" }).click();
  await dialog.getByRole("textbox", { name: "Name" }).fill("ops-receiver");
  await dialog.getByRole("textbox", { name: "URL" }).fill(`http://127.0.0.1:${port}/steward`);
  await dialog.getByRole("textbox", { name: "Signing secret" }).click();
  await page.getByRole("option", { name: "notify-secret (secret)" }).click();
  // a header Steward sets itself is refused, on the headers editor
  await dialog.getByRole("button", { name: "Add header" }).click();
  await dialog.getByRole("textbox", { name: "Header 1 name" }).fill("Content-Type");
  await dialog.getByRole("textbox", { name: "Header 1 value" }).fill("text/plain");
  await dialog.getByRole("button", { name: "Create destination" }).click();
  await expect(dialog.getByText(/is set by Steward/)).toBeVisible();
  await dialog.getByRole("textbox", { name: "Header 1 name" }).fill("X-Team");
  await dialog.getByRole("textbox", { name: "Header 1 value" }).fill("dba");
  await dialog.getByRole("button", { name: "Create destination" }).click();
  await expect(dialog).toBeHidden();
  await shots(page, "triggers-notifications");

  await page.getByRole("button", { name: "Send a test to ops-receiver" }).click();
  await expect(page.getByRole("heading", { name: "ops-receiver" })).toBeVisible();
  const message = page.getByRole("region", { name: /Message \d+/ }).first();
  await expect(message).toContainText("Test message");
  await expect(message).toContainText("sent", { timeout: 30_000 });
  await expect(message.getByRole("table", { name: "Attempts" })).toContainText("HTTP 200");
  await expect(message.getByRole("table", { name: "Attempts" })).toContainText("delivered");
  expect(received.length).toBeGreaterThan(0);
  const post = received[received.length - 1];
  if (post === undefined) throw new Error("the receiver got no request");
  expect(post.path).toBe("/steward");
  expect(post.headers["x-team"]).toBe("dba");
  expect(post.headers["x-steward-signature-256"]).toMatch(/^sha256=[0-9a-f]{64}$/);
  await shots(page, "triggers-destination");

  // a closed port: the failed attempt is recorded, with its error, and a retry is planned
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((done) => closed.close(done));
  const dead = await api.send<{ id: number }>(
    "POST",
    `/api/v1/projects/${projectId}/notification-destinations`,
    {
      kind: "webhook",
      name: "nobody-listens",
      config: { url: `http://127.0.0.1:${closedPort}/x` },
      secret_key_id: (
        await api.send<{ items: { id: number; name: string }[] }>(
          "GET",
          `/api/v1/projects/${projectId}/keys`,
        )
      ).items.find((k) => k.name === "notify-secret")?.id,
    },
  );
  await page.goto(`/projects/${projectId}/notifications/${dead.id}`);
  await page.getByRole("button", { name: "Send test", exact: true }).click();
  const failed = page.getByRole("region", { name: /Message \d+/ }).first();
  const attempts = failed.getByRole("table", { name: "Attempts" });
  await expect(attempts).toContainText("failed", { timeout: 30_000 });
  await expect(failed).toContainText("next attempt");
  await shots(page, "triggers-destination-failed");

  // a project-wide subscription, also listed on the template's page
  await page.goto(`/projects/${projectId}/notifications`);
  await page.getByRole("button", { name: "New subscription" }).click();
  const sub = page.getByRole("dialog", { name: "New subscription" });
  await sub.getByRole("textbox", { name: "Destination" }).click();
  await page.getByRole("option", { name: "ops-receiver (webhook)" }).click();
  await sub.getByRole("checkbox", { name: /Still running/ }).check();
  await sub.getByRole("textbox", { name: /Still running after/ }).fill("45");
  await sub.getByRole("button", { name: "Subscribe" }).click();
  await expect(sub).toBeHidden();
  const subs = page.getByRole("table", { name: "Subscriptions" });
  await expect(subs).toContainText("Whole project");
  await expect(subs).toContainText("running > 45 min");
  await page.goto(`/projects/${projectId}/templates/${templateId}?tab=notifications`);
  await expect(page.getByRole("table", { name: "Subscriptions" })).toContainText("ops-receiver");
  await shots(page, "triggers-template-notifications");
});

test("on a phone the new pages fit the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAs(page, "/projects");
  const schedules = await api.send<{ items: { id: number }[] }>(
    "GET",
    `/api/v1/projects/${projectId}/schedules`,
  );
  const webhooks = await api.send<{ items: { id: number }[] }>(
    "GET",
    `/api/v1/projects/${projectId}/webhooks`,
  );
  const pages: [string, string][] = [
    ["schedules", `/projects/${projectId}/schedules`],
    ["schedule", `/projects/${projectId}/schedules/${schedules.items[0]?.id}`],
    ["webhooks", `/projects/${projectId}/webhooks`],
    ["webhook", `/projects/${projectId}/webhooks/${webhooks.items[0]?.id}`],
    ["notifications", `/projects/${projectId}/notifications`],
    ["template", `/projects/${projectId}/templates/${templateId}`],
  ];
  for (const [name, path] of pages) {
    await page.goto(path);
    await expect(page.getByRole("table").first()).toBeVisible();
    expect(await overflowing(page), name).toEqual([]);
    await shots(page, `triggers-phone-${name}`);
  }
});

test("a viewer sees the pages read-only", async ({ page }) => {
  await openAs(page, `/projects/${projectId}/schedules`, VIEWER, PASSWORD);
  await expect(page.getByRole("link", { name: "nightly-rman" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("button", { name: "New schedule" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit nightly-rman" })).toHaveCount(0);
  await page.getByRole("link", { name: "nightly-rman" }).click();
  await expect(page.getByRole("table", { name: "Next runs" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Turn off" })).toHaveCount(0);
  await page.goto(`/projects/${projectId}/webhooks`);
  await expect(page.getByRole("link", { name: "on-push" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("button", { name: "New webhook" })).toHaveCount(0);
  await page.getByRole("link", { name: "on-push" }).click();
  await expect(page.getByRole("button", { name: "Send test delivery" })).toHaveCount(0);
  await expect(page.getByText(/shown to who may change the template/)).toBeVisible();
  await page.goto(`/projects/${projectId}/notifications`);
  await expect(page.getByRole("link", { name: "ops-receiver", exact: true })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByRole("button", { name: "New destination" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "New subscription" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send a test to ops-receiver" })).toHaveCount(0);
  await shots(page, "triggers-viewer-notifications");
});
