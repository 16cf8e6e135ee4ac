// A project to run playbooks in, made through the API: a local repository of playbooks written
// to a new directory in the server's local repository root, a localhost inventory, one template
// per playbook. Shared by the run-*.spec.ts.
import { type APIRequestContext, type Page, expect } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { repositoryDir } from "./server.ts";

const repo = resolve(import.meta.dirname, "..", "..");
const python = process.env.STEWARD_PYTHON ?? join(repo, ".venv", "bin", "python");

export const FINISHED = ["successful", "failed", "error", "canceled", "timed_out"];

export interface RunBody {
  id: number;
  status: string;
  line_count: number;
}

export class Workbench {
  projectId = 0;
  private readonly templates = new Map<string, number>();

  private constructor(
    private readonly request: APIRequestContext,
    private readonly csrf: string,
  ) {}

  /** Sign in through the API (the cookie lands in `request`'s context) and build a project.
   * `hosts`: the inventory's hosts (default: localhost), each run locally. */
  static async create(
    request: APIRequestContext,
    name: string,
    playbooks: Record<string, string>,
    hosts: readonly string[] = ["localhost"],
  ): Promise<Workbench> {
    const login = await request.post("/api/v1/auth/login", {
      data: { username: "admin", password: process.env.STEWARD_E2E_PASSWORD ?? "" },
    });
    expect(login.ok(), await login.text()).toBe(true);
    const bench = new Workbench(
      request,
      ((await login.json()) as { csrf_token: string }).csrf_token,
    );

    const dir = repositoryDir("playbooks-");
    for (const [file, text] of Object.entries(playbooks)) writeFileSync(join(dir, file), text);

    bench.projectId = (await bench.post("/api/v1/projects", { name })).id as number;
    await bench.put(bench.url("local-roots"), { local_roots: [dir] });
    const repository = await bench.post(bench.url("repositories"), {
      name: "playbooks",
      kind: "local",
      url: dir,
    });
    const inventory = await bench.post(bench.url("inventories"), {
      name: "localhost",
      kind: "static",
      format: "ini",
      content: hosts
        .map((host) => `${host} ansible_connection=local ansible_python_interpreter=${python}\n`)
        .join(""),
    });
    for (const file of Object.keys(playbooks)) {
      const template = await bench.post(bench.url("templates"), {
        name: file.replace(/\.yml$/, ""),
        playbook: file,
        repository_id: repository.id,
        inventory_id: inventory.id,
      });
      bench.templates.set(file.replace(/\.yml$/, ""), template.id as number);
    }
    return bench;
  }

  url(path: string): string {
    return `/api/v1/projects/${this.projectId}/${path}`;
  }

  async put(url: string, data: unknown): Promise<void> {
    const response = await this.request.put(url, {
      data,
      headers: { "X-CSRF-Token": this.csrf },
    });
    expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  }

  async patch(url: string, data: unknown): Promise<void> {
    const response = await this.request.patch(url, {
      data,
      headers: { "X-CSRF-Token": this.csrf },
    });
    expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  }

  /** The id of the template made for `name` (its playbook's file name without .yml). */
  templateId(name: string): number {
    const id = this.templates.get(name);
    if (id === undefined) throw new Error(`no template ${name}`);
    return id;
  }

  async post(url: string, data: unknown): Promise<Record<string, unknown>> {
    const response = await this.request.post(url, {
      data,
      headers: { "X-CSRF-Token": this.csrf },
    });
    expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
    return (await response.json()) as Record<string, unknown>;
  }

  async launch(template: string): Promise<RunBody> {
    return (await this.post(this.url("runs"), {
      template_id: this.templates.get(template),
    })) as unknown as RunBody;
  }

  async run(runId: number): Promise<RunBody> {
    const response = await this.request.get(this.url(`runs/${runId}`));
    expect(response.ok()).toBe(true);
    return (await response.json()) as RunBody;
  }

  async waitFinished(runId: number, timeoutMs = 120_000): Promise<RunBody> {
    let run = await this.run(runId);
    const deadline = Date.now() + timeoutMs;
    while (!FINISHED.includes(run.status)) {
      if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
      await new Promise((wait) => setTimeout(wait, 250));
      run = await this.run(runId);
    }
    return run;
  }
}

export async function signIn(page: Page) {
  await page.goto("/login?next=/projects"); // the first screen is the dashboard
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(process.env.STEWARD_E2E_PASSWORD ?? "");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
}

/** The log's rendered rows: their line numbers (0-based) and text. */
export async function renderedLines(page: Page): Promise<{ n: number; text: string }[]> {
  return page
    .getByRole("region", { name: "Run output" })
    .locator("[data-line]")
    .evaluateAll((rows) =>
      rows.map((row) => ({
        n: Number(row.getAttribute("data-line")),
        text: row.lastElementChild?.textContent ?? "",
      })),
    );
}
