/**
 * setupFiles entry of the integration tier: runs in each test worker before the test file is
 * imported, so modules that read configuration on import (lib/env, lib/db) see the services the
 * global setup started: the database and bucket of this worker (VITEST_POOL_ID, 1 to maxWorkers;
 * files in one worker run one after another).
 */
import { inject } from "vitest";

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
