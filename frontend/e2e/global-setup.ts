import { startServer } from "./server.ts";

/** One server for the whole run; its URL and admin password reach the tests through env. */
export default async function globalSetup() {
  const server = await startServer();
  process.env.STEWARD_E2E_URL = server.url;
  process.env.STEWARD_E2E_PASSWORD = server.adminPassword;
  return server.stop;
}
