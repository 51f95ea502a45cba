/**
 * setupFiles entry of the integration tier: runs in each test worker before the test file is
 * imported, so modules that read configuration on import (lib/env, lib/db) see the services the
 * global setup started: the database and bucket of this worker (VITEST_POOL_ID, 1 to maxWorkers;
 * files in one worker run one after another).
 *
 * Files of the "integration" project share their worker's process (vitest.config.ts): this file
 * runs again before each of them, and after each the environment is put back as it was when the
 * file began (variables a test set, changed or removed), with the configuration read from it.
 */
import { afterAll, inject } from "vitest";

import { resetEnvForTests } from "@/lib/env";

declare module "vitest" {
  interface ProvidedContext {
    /** Set by global-setup.ts, one per worker: DATABASE_URL, TEST_DATABASE, S3_*, AUTH_SECRET, APP_ENCRYPTION_KEY. */
    integrationEnvs: Array<Record<string, string>>;
  }
}

const envs = inject("integrationEnvs");
const worker = Number(process.env["VITEST_POOL_ID"] ?? "1");
const env = envs[worker - 1];
if (!env) throw new Error(`No integration services for worker ${worker} (${envs.length} prepared)`);
Object.assign(process.env, env);

const atStart = { ...process.env };
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in atStart)) delete process.env[name];
  Object.assign(process.env, atStart);
  resetEnvForTests();
});
