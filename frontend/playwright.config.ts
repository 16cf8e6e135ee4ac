import { defineConfig, devices } from "@playwright/test";

// No browser downloads here: Debian's chromium (apt-get install chromium) runs the tests.
const chromium = process.env.STEWARD_CHROMIUM ?? "/usr/bin/chromium";

// Two workers, each with a Steward server of its own. The global setup starts one server per
// worker (its own free loopback port, data dir and local repository root: e2e/server.ts) and
// names them by slot; this file, which Playwright also loads in every worker before the spec
// files, gives the worker the server of its slot (TEST_PARALLEL_INDEX, which a worker started
// again after a failure keeps) as STEWARD_E2E_URL/_PASSWORD/_REPOSITORIES. So the specs of one
// worker share a server and run one after another, as all of them did on one worker, and
// nothing one worker does to its instance (settings, users, 2FA, runs in its queue) reaches the
// specs of the other: no spec has to know what runs beside it. A spec file stays on one worker
// (fullyParallel: false): its tests build on each other. The LDAP and OIDC specs start servers
// of their own as before.
const slot = process.env.TEST_PARALLEL_INDEX;
if (slot !== undefined) {
  for (const name of ["URL", "PASSWORD", "REPOSITORIES"]) {
    const value = process.env[`STEWARD_E2E_${name}_${slot}`];
    if (value !== undefined) process.env[`STEWARD_E2E_${name}`] = value;
  }
}

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  // a condition that holds passes at once; beside the other worker on two cores, a sign-in
  // (argon2) or a page load can take longer than the default 5 s
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: process.env.STEWARD_E2E_URL,
    trace: "retain-on-failure",
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
