import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Node's arguments for the application server on `host:port` as `npm start` runs it (the Next.js
 * build in .next and the compiled server in dist/, both made by `npm run build`: Next.js's custom
 * server with the API's route handlers dispatched directly, lib/api/dispatch.ts), for the test
 * tiers and benchmarks that start it themselves. With `nextStart`, plain `next start` of the same
 * build instead (the API through Next.js's router and proxy.ts), for comparing the two.
 * Spawn with `process.execPath` and `cwd` at the project's root.
 */
export function productionServerArgs(port: number, host = "127.0.0.1", { nextStart = false }: { nextStart?: boolean } = {}): string[] {
  if (nextStart) return [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", host];
  return ["--max-old-space-size=384", COMPILED_SERVER, "-p", String(port), "-H", host];
}

/** The compiled application server (`npm run build`, `npm run build:server`). */
export const COMPILED_SERVER = path.join(root, "dist/server/index.js");
