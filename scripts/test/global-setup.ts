/**
 * Global setup of the integration tier (the projects "integration" and "integration-load"): one
 * fresh PostgreSQL and S3 for the run, and on them a migrated database and a bucket for each test
 * worker (see services.ts for where they come from), so that test files running side by side never
 * see each other's rows or objects.
 *
 * Both projects list this file and Vitest runs each project's global setup, side by side, in its
 * main process: the first starts the services for every integration project of the run (as many
 * copies as the most workers any of them has), the others share them, and the last teardown stops
 * them.
 *
 * Tests run in worker processes, so setting process.env here would not reach them reliably. The
 * values travel through Vitest's provide/inject instead, and integration-env.ts (a setupFiles
 * entry) copies the worker's set into its process.env before any test file is imported.
 */
import type { TestProject } from "vitest/node";

import { startTestServices, type TestServices } from "./services.ts";
// The type of "integrationEnvs" is declared in integration-env.ts.

interface Shared {
  services: Promise<TestServices>;
  users: number;
}
const KEY = Symbol.for("client-portals.integration-services");
const registry = globalThis as { [KEY]?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const integration = project.vitest.projects.filter((p) => [p.config.globalSetup].flat().some((file) => file.endsWith("scripts/test/global-setup.ts")));
  const copies = Math.max(1, ...integration.map((p) => p.config.maxWorkers || 1));
  let shared = registry[KEY];
  if (!shared) {
    shared = registry[KEY] = {
      services: startTestServices({ databaseName: "client_portals_test", tmpPrefix: "cp-int-", copies }).then((services) => {
        process.stdout.write(`[integration] ${services.description} (${copies} databases and buckets, one per worker); S3 at ${services.env["S3_ENDPOINT"]}\n`);
        return services;
      }),
      users: 0,
    };
  }
  shared.users++;
  const services = await shared.services;
  project.provide("integrationEnvs", services.copies);
  return async () => {
    if (--shared.users > 0) return;
    delete registry[KEY];
    await services.stop();
  };
}
