/**
 * Global setup of the integration tier: one fresh database (migrated) and one S3 bucket for the
 * whole run; see services.ts for where they come from.
 *
 * Vitest runs this in its main process, while tests run in worker processes, so setting
 * process.env here would not reach them reliably. The values travel through Vitest's
 * provide/inject instead, and integration-env.ts (a setupFiles entry) copies them into the
 * worker's process.env before any test file is imported.
 */
import type { TestProject } from "vitest/node";

import { startTestServices } from "./services.ts";
// The type of "integrationEnv" is declared in integration-env.ts.

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const services = await startTestServices({ databaseName: "client_portals_test", tmpPrefix: "cp-int-" });
  process.stdout.write(`[integration] ${services.description}; S3 at ${services.env["S3_ENDPOINT"]}\n`);
  project.provide("integrationEnv", services.env);
  return () => services.stop();
}
