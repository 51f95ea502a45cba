/**
 * `npm run db:generate`: `prisma generate`, offline.
 *
 * Generating the client needs no schema engine, but Prisma 7's CLI still verifies that a native
 * `schema-engine` binary is present at startup and tries to download it (binaries.prisma.sh)
 * when it isn't. Pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file satisfies that check;
 * the engine is never run by `generate`. Migrations don't go through the CLI at all (see
 * scripts/lib/schema-engine.ts). Extra arguments are passed through (e.g. `-- --watch`).
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../", import.meta.url));
const cli = createRequire(import.meta.url).resolve("prisma/build/index.js");

const env: NodeJS.ProcessEnv = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env["PRISMA_SCHEMA_ENGINE_BINARY"] || process.execPath,
  // No update check, no telemetry ping: both would be network calls.
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
  // There is no checksum file next to the stand-in engine.
  PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: "1",
};

const result = spawnSync(process.execPath, [cli, "generate", ...process.argv.slice(2)], {
  cwd: repoRoot,
  env,
  stdio: "inherit",
});
if (result.error) {
  console.error(`db:generate: could not run the Prisma CLI: ${result.error.message}`);
  process.exitCode = 1;
} else {
  process.exitCode = result.status ?? 1;
}
