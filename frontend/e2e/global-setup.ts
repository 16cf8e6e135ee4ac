import { startServer } from "./server.ts";

/** One server for the whole run; its URL, admin password and local repository root reach the
 * tests through env. */
export default async function globalSetup() {
  const server = await startServer();
  process.env.STEWARD_E2E_URL = server.url;
  process.env.STEWARD_E2E_PASSWORD = server.adminPassword;
  process.env.STEWARD_E2E_REPOSITORIES = server.repositories;
  return server.stop;
}
