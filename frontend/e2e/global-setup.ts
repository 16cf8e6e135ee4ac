import type { FullConfig } from "@playwright/test";
import { startServer } from "./server.ts";

/** One server per worker (see playwright.config.ts), started side by side: server `i`'s URL,
 * admin password and local repository root reach the tests through env as
 * STEWARD_E2E_URL_i, STEWARD_E2E_PASSWORD_i, STEWARD_E2E_REPOSITORIES_i; the config gives each
 * worker its own as STEWARD_E2E_URL, STEWARD_E2E_PASSWORD, STEWARD_E2E_REPOSITORIES. */
export default async function globalSetup(config: FullConfig) {
  const slots = [...Array(Math.max(1, config.workers)).keys()];
  const started = await Promise.allSettled(
    slots.map((slot) => startServer({ log: `server-${slot}.log` })),
  );
  const servers = started.flatMap((result) =>
    result.status === "fulfilled" ? [result.value] : [],
  );
  const stopAll = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  servers.forEach((server, slot) => {
    process.env[`STEWARD_E2E_URL_${slot}`] = server.url;
    process.env[`STEWARD_E2E_PASSWORD_${slot}`] = server.adminPassword;
    process.env[`STEWARD_E2E_REPOSITORIES_${slot}`] = server.repositories;
  });
  return stopAll;
}
