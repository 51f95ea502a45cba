import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Node's arguments for the production server on `host:port` (the build in .next), for the test
 * tiers and benchmarks that start it themselves: server/index.ts, what `npm start` runs (Next.js's
 * custom server with the API's route handlers dispatched directly, lib/api/dispatch.ts). With
 * `nextStart`, plain `next start` instead (the API through Next.js's router), for comparing the two.
 * Spawn with `process.execPath` and `cwd` at the project's root.
 */
export function productionServerArgs(port: number, host = "127.0.0.1", { nextStart = false }: { nextStart?: boolean } = {}): string[] {
  if (nextStart) return [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", host];
  return ["--import", "tsx", path.join(root, "server/index.ts"), "-p", String(port), "-H", host];
}
