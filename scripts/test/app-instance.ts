/**
 * One app instance for the scale-out integration test (lib/api/two-instances.int.test.ts): the
 * production route handlers of the API (every route of app/api/route-table.ts) and of the Inngest endpoint, and the event relay started
 * as instrumentation.ts starts it in `next start`, behind a plain node:http server on PORT.
 * Next.js's router and proxy.ts are left out (they hold no state); what an instance shares with
 * another (the database, Inngest) and what it holds in memory are the production code's own.
 *
 *   node --conditions=react-server --import tsx scripts/test/app-instance.ts   (PORT, and the app's environment)
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";

import { NextRequest } from "next/server";

import { register } from "../../instrumentation.ts";

// Every API route, dispatched as the production server dispatches them (lib/api/dispatch.ts).
const { createApiDispatcher } = await import("../../lib/api/dispatch.ts");
const { API_ROUTE_TABLE } = await import("../../app/api/route-table.ts");
const dispatcher = createApiDispatcher(API_ROUTE_TABLE);

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const q = (req.url ?? "/").indexOf("?");
  const rawPath = q === -1 ? (req.url ?? "/") : (req.url ?? "/").slice(0, q);
  const handler = dispatcher.claims(rawPath) ? dispatcher.find(req.method ?? "GET", rawPath) : null;
  if (!handler) {
    res.writeHead(404).end();
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new NextRequest(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    ...(hasBody ? { duplex: "half" } : {}),
  });
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

process.env["NEXT_RUNTIME"] = "nodejs";
await register();
const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    process.stderr.write(`[instance] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
// As `next start` does on SIGTERM/SIGINT: stop accepting connections, then exit (which
// lib/shutdown.ts holds until the event relay's hand-off in progress is done).
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
}
server.listen(Number(process.env["PORT"]), "127.0.0.1", () => process.stdout.write(`listening on ${process.env["PORT"]}\n`));
