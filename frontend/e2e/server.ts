// The real Steward server for the end-to-end tests: a fresh data dir, a known admin password,
// the built console (dist/) mounted by steward.api.spa, on a free loopback port. Local
// repositories live in a fresh directory, its only STEWARD_LOCAL_REPOSITORY_ROOTS.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const frontend = resolve(import.meta.dirname, "..");
const repo = resolve(frontend, "..");
export const artifacts = join(frontend, "test-artifacts");

// Mounts the console itself only while src/steward/api/app.py doesn't (same route name).
// Passwords are hashed with argon2's smallest parameters, as in the pytest suite
// (tests/support/isolation.py): the real ones (64 MiB, 3 passes) cost 0.1-0.5 s a hash or a
// sign-in, seconds on a machine under load, and the specs sign in and make users about a
// hundred times. A hash carries its parameters; what the specs check is that a password is
// verified, not how slowly.
const LAUNCHER = `
import sys
from pathlib import Path

import uvicorn
from argon2 import PasswordHasher

from steward.api.spa import ROUTE_NAME, mount_spa
from steward.auth import passwords
from steward.config import Settings
from steward.server import build_app

passwords._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
passwords._DUMMY_HASH = passwords._hasher.hash("steward-dummy-password")

app = build_app(Settings())
if not any(getattr(route, "name", None) == ROUTE_NAME for route in app.routes):
    mount_spa(app, Path(sys.argv[1]))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
`;

export interface RunningServer {
  url: string;
  adminPassword: string;
  repositories: string; // the local repository root: make them with repositoryDir()
  stop: () => Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? done(address.port) : fail(new Error("no port")),
      );
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((wait) => setTimeout(wait, 200));
  }
  throw new Error(`server not healthy after ${timeoutMs} ms`);
}

function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

/** `port`: where to listen (a free one when absent); `env`: more settings (STEWARD_…); `log`:
 * the log's name in test-artifacts/. */
export async function startServer(
  options: { port?: number; env?: Record<string, string>; log?: string } = {},
): Promise<RunningServer> {
  const dist = join(frontend, "dist");
  if (!existsSync(join(dist, "index.html"))) {
    throw new Error("dist/index.html is missing: run `npm run build` first (npm run e2e does)");
  }
  mkdirSync(artifacts, { recursive: true });
  const python = process.env.STEWARD_PYTHON ?? join(repo, ".venv", "bin", "python");
  const dataDir = mkdtempSync(join(tmpdir(), "steward-e2e-"));
  const repositories = mkdtempSync(join(tmpdir(), "steward-e2e-repositories-"));
  const adminPassword = `e2e-${randomBytes(12).toString("hex")}`;
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const logName = options.log ?? "server.log";
  const log = createWriteStream(join(artifacts, logName));
  const child = spawn(python, ["-c", LAUNCHER, dist, String(port)], {
    cwd: repo,
    env: {
      ...process.env,
      STEWARD_DATA_DIR: dataDir,
      STEWARD_ADMIN_USER: "admin",
      STEWARD_ADMIN_PASSWORD: adminPassword,
      STEWARD_LOCAL_REPOSITORY_ROOTS: repositories,
      // the tests' notification receivers listen on loopback, which the server refuses unless
      // an admin allows it (as the pytest settings do)
      STEWARD_OUTBOUND_ALLOWED_NETWORKS: "127.0.0.1/32,::1/128",
      // the port uvicorn listens on (not Settings.port): webhook URLs and notification links
      STEWARD_URL: url,
      // the run page flags a host quiet after 3 s on one task (run-progress.spec.ts)
      STEWARD_HOST_QUIET_MINUTES: "0.05",
      // a workflow's next node, an approval's effect and a notification's sending wait for these
      // ticks (1 s and 2 s by default), several times a spec (workflows, triggers, inbox)
      STEWARD_WORKFLOW_TICK_SECONDS: "0.25",
      STEWARD_NOTIFIER_TICK_SECONDS: "0.25",
      // a schedule's occurrence is launched at the next tick (10 s by default): drift.spec
      // waits for a scheduled plan
      STEWARD_SCHEDULER_TICK_SECONDS: "0.5",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  // a worker ended by a timed-out hook never calls stop(): the server must not outlive it
  const orphaned = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  process.once("exit", orphaned);
  child.once("exit", () => process.off("exit", orphaned));

  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null) {
      process.kill(child.pid, "SIGTERM");
      if (!(await exited(child, 10_000))) process.kill(child.pid, "SIGKILL");
      await exited(child, 5_000);
    }
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(repositories, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, 180_000); // a fresh database is migrated first: slow on a busy machine
  } catch (error) {
    await stop();
    throw new Error(`${String(error)}; see test-artifacts/${logName}`);
  }
  return { url, adminPassword, repositories, stop };
}

/** A new directory for a local repository, inside the server's local repository root. */
export function repositoryDir(prefix: string): string {
  const root = process.env.STEWARD_E2E_REPOSITORIES;
  if (!root) throw new Error("STEWARD_E2E_REPOSITORIES is unset: run the tests with npm run e2e");
  return mkdtempSync(join(root, prefix));
}
