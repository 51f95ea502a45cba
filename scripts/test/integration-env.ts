/**
 * setupFiles entry of the integration tier: runs in each test worker before the test file is
 * imported, so modules that read configuration on import (lib/env, lib/db) see the services the
 * global setup started.
 */
import { inject } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    /** Set by global-setup.ts: DATABASE_URL, TEST_DATABASE, S3_*, AUTH_SECRET, APP_ENCRYPTION_KEY. */
    integrationEnv: Record<string, string>;
  }
}

Object.assign(process.env, inject("integrationEnv"));
