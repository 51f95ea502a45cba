/**
 * The application server: `npm start` (production, the build in .next, compiled to
 * dist/server/index.js by `npm run build`) and `npm run dev` (development: `--dev`). Next.js serves
 * every page, action and route through its documented custom-server API; the API's well-formed
 * requests (/api/v1/*, /oauth/token, /oauth/revoke, /api/inngest) go straight to their route
 * handlers (lib/api/dispatch.ts). Both run in this one process (server/app-server.ts).
 *
 *   PORT (default 3000), HOSTNAME (default 0.0.0.0); `-p PORT` and `-H HOST` as `next start` takes
 *   them; `--dev` for Next.js's development mode (compiles on demand, reloads edited modules).
 *
 * SIGTERM/SIGINT: stop accepting connections, let the requests in flight finish, close Next.js, exit
 * (lib/shutdown.ts holds the exit until the event relay's hand-off in progress is done).
 */
// First: the environment as a plain object before any module reads it (plain-env.ts says why).
// The server itself is imported after it, so that nothing it loads runs before.
import "./plain-env.ts";

function option(short: string, long: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === short || a === long);
  return i >= 0 ? args[i + 1] : undefined;
}

const { startAppServer } = await import("./app-server.ts");
await startAppServer({
  dev: process.argv.includes("--dev"),
  port: Number(option("-p", "--port") ?? process.env["PORT"] ?? 3000),
  hostname: option("-H", "--hostname") ?? process.env["HOSTNAME"] ?? "0.0.0.0",
});
