import { defineConfig, devices } from "@playwright/test";

// No browser downloads here: Debian's chromium (apt-get install chromium) runs the tests.
const chromium = process.env.STEWARD_CHROMIUM ?? "/usr/bin/chromium";

// Three workers, each with a Steward server of its own: two left the cores idle ~40 % of the
// run (310 s of CPU for a 258 s run on 2 cores: a worker waits on its server, its runs and the
// page). The global setup starts one server per worker (its own free loopback port, data dir
// and local repository root: e2e/server.ts) and names them by slot; this file, which
// Playwright also loads in every worker before the spec files, gives the worker the server of
// its slot (TEST_PARALLEL_INDEX, which a worker started again after a failure keeps) as
// STEWARD_E2E_URL/_PASSWORD/_REPOSITORIES. So the specs of one worker share a server and run
// one after another, as all of them did on one worker, and nothing one worker does to its
// instance (settings, users, 2FA, runs in its queue) reaches the specs of another: no spec has
// to know what runs beside it. A spec file stays on one worker (fullyParallel: false): its
// tests build on each other; a spec whose tests are independent says so itself
// (test.describe.configure({ mode: "parallel" })). The LDAP and OIDC specs start servers of
// their own as before.
//
// The workers take spec files from one queue, in order: project by project, by file name
// within one. So the long specs go first (project "long") and the short ones fill in behind
// them ("rest"): the workers end nearly together instead of one finishing a long spec alone
// (by file name alone, triggers and workflows came last). A spec added later lands in "rest";
// one that takes half a minute or more of a worker, or a single test of 15 s or more, belongs
// in LONG. A worker changing project starts afresh (a new worker process and browser; the same
// server, by its slot): two projects, not more (a third, "first", cost each worker one more
// start for nothing: "rest" behind the long ones already evens out the end).
const slot = process.env.TEST_PARALLEL_INDEX;
if (slot !== undefined) {
  for (const name of ["URL", "PASSWORD", "REPOSITORIES"]) {
    const value = process.env[`STEWARD_E2E_${name}_${slot}`];
    if (value !== undefined) process.env[`STEWARD_E2E_${name}`] = value;
  }
}

// the long specs (some of them split over the workers by mode "parallel"), then the rest
const LONG = [
  "compare",
  "crud-flow",
  "guided",
  "launch",
  "ldap",
  "oidc",
  "requirements",
  "rights",
  "run-live",
  "run-page",
  "run-progress",
  "totp",
  "triggers",
  "workflows",
];
const specs = (names: string[]) => new RegExp(`/e2e/(${names.join("|")})\\.spec\\.ts$`);

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 3,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  // a condition that holds passes at once; beside the other worker on two cores, a sign-in
  // (argon2) or a page load can take longer than the default 5 s
  expect: { timeout: 15_000 },
  // the JSON report gives each test's worker and start time: where a worker waited (a spec's
  // beforeAll, which no test's duration counts; a worker starting) shows as a gap between tests
  reporter: [["list"], ["json", { outputFile: "test-artifacts/e2e-report.json" }]],
  projects: [
    { name: "long", testMatch: specs(LONG) },
    { name: "rest", testIgnore: specs(LONG) },
  ],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: process.env.STEWARD_E2E_URL,
    // a failed test keeps its trace (each action's DOM snapshot, the network, the console) and
    // a screenshot of the end; the trace's screencast (a frame at every paint, of every test,
    // kept or not) is left out: it cost more than it told beside the DOM snapshots
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
