/**
 * The production server: `npm start` (after `npm run build`). Next.js serves every page, action and
 * route as `next start` would, through its documented custom-server API; the API's well-formed
 * requests (/api/v1/*, /oauth/token, /oauth/revoke) go straight to their route handlers instead
 * (lib/api/dispatch.ts: the router and proxy.ts cost more CPU per request than a whole refresh
 * grant, issue 17). Both run in this one process on the build's own modules, found through
 * instrumentation.ts.
 *
 *   PORT (default 3000), HOSTNAME (default 0.0.0.0); `-p PORT` and `-H HOST` as `next start` takes them.
 *
 * SIGTERM/SIGINT: stop accepting connections, let the requests in flight finish, close Next.js, exit
 * (lib/shutdown.ts holds the exit until the event relay's hand-off in progress is done).
 */
// First: the environment as a plain object before any module reads it (plain-env.ts says why).
import "./plain-env.ts";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";

import type { ApiDispatcher } from "../lib/api/dispatch.ts";
import { CLIENT_IP_HEADER, resolveClientIp } from "../lib/security/client-ip.ts";
import { sendWebResponse, toWebRequest } from "./node-bridge.ts";

function option(short: string, long: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === short || a === long);
  return i >= 0 ? args[i + 1] : undefined;
}

const dir = fileURLToPath(new URL("..", import.meta.url));
const port = Number(option("-p", "--port") ?? process.env["PORT"] ?? 3000);
const hostname = option("-H", "--hostname") ?? process.env["HOSTNAME"] ?? "0.0.0.0";
(process.env as Record<string, string>)["NODE_ENV"] = "production";
// instrumentation.ts builds the API dispatcher only in this server (not in `next dev`).
process.env["CLIENT_PORTALS_SERVER"] = "1";

const app = next({ dev: false, dir: path.resolve(dir), hostname, port });
const nextHandler = app.getRequestHandler();
await app.prepare();
// Next.js runs instrumentation.ts at its first request (not in prepare()): until then every request
// goes through Next.js, which is correct, only slower.
const dispatcherOf = () => (globalThis as Record<symbol, unknown>)[Symbol.for("client-portals.api-dispatcher")] as ApiDispatcher | undefined;
// Proxies in front whose X-Forwarded-For entries are trusted (lib/env.ts TRUSTED_PROXY_HOPS).
const trustedProxyHops = Number(process.env["TRUSTED_PROXY_HOPS"] ?? 0) || 0;
const origin = `http://${hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname}:${port}`;

const server = createServer((req, res) => {
  const rawUrl = req.url ?? "/";
  const q = rawUrl.indexOf("?");
  const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
  // Not one of the dispatcher's (a page, an unknown API path, a method the route lacks...): Next.js.
  const dispatcher = dispatcherOf();
  const handler = dispatcher?.claims(rawPath) ? dispatcher.find(req.method ?? "GET", rawPath) : null;
  if (!handler) {
    // Sessions and sign-in throttling read the client's address from here (lib/security/client-ip.ts).
    req.headers[CLIENT_IP_HEADER] = resolveClientIp(req.socket.remoteAddress, req.headers["x-forwarded-for"]?.toString(), trustedProxyHops);
    void nextHandler(req, res);
    return;
  }
  void (async () => {
    const response = await handler(await toWebRequest(req, origin));
    await sendWebResponse(res, response, req.method === "HEAD");
  })().catch((error: unknown) => {
    process.stderr.write(`[server] ${req.method} ${rawPath}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    // The spec's error shape, as lib/api/error-response.ts answers an unexpected error.
    res.end(res.headersSent ? undefined : JSON.stringify({ error: "server_error", error_description: "The server could not complete the request" }));
  });
});

let stopping = false;
function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`[server] ${signal}: finishing requests in flight\n`);
  // As `next start` does: the exit code of a process ended by the signal (128 + its number).
  const code = 128 + (signal === "SIGINT" ? 2 : 15);
  server.close(() => {
    void app.close().finally(() => process.exit(code));
  });
  server.closeIdleConnections();
}
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

server.listen(port, hostname, () => {
  process.stdout.write(`[server] Client Portals listening on ${origin} (API dispatched directly, pages by Next.js)\n`);
  // The first request runs instrumentation.ts (configuration check, event relay, the dispatcher).
  void fetch(`${origin}/healthz`)
    .then(async (r) => {
      await r.arrayBuffer();
      if (!dispatcherOf()) process.stderr.write("[server] instrumentation.ts set up no API dispatcher: the API goes through Next.js\n");
    })
    .catch(() => undefined);
});
