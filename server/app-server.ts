import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getRequestListener } from "@hono/node-server";
import next from "next";

import type { ApiDispatcher } from "../lib/api/dispatch.ts";
import { CLIENT_IP_HEADER, resolveClientIp } from "../lib/security/client-ip.ts";

// The HTTP server of server/index.ts: Next.js for everything, except the API requests the
// dispatcher claims, which go to their route handler through @hono/node-server's request listener
// (node:http's request as a web Request, the handler's Response streamed back).

/** Longest a stopping server waits for requests in flight before it closes their connections. */
const STOP_GRACE_MS = 25_000;
/** How long an idle kept-alive connection is kept (above a load balancer's 60 s). */
const KEEP_ALIVE_MS = 65_000;

export interface AppServerOptions {
  /** Next.js's development mode (`npm run dev`); otherwise the production build in .next. */
  dev: boolean;
  port: number;
  hostname: string;
}

type Dispatched = (req: Request) => Promise<Response>;
const HANDLER = Symbol("client-portals.dispatched-handler");
type ClaimedRequest = IncomingMessage & { [HANDLER]?: Dispatched };

/** The project's root: the nearest folder above this module with a package.json (server/ in the sources, dist/ compiled). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** A Host header that is a plain host[:port] (anything else is answered for the server's own origin). */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The absolute URL the route handler sees, as Next.js gives it: the Host the client addressed and
 * the scheme a proxy in front says (X-Forwarded-Proto), the server's own host without a usable
 * Host. The job engine's serve handler tells Inngest its own URL from it.
 */
function absoluteUrl(req: IncomingMessage, ownHost: string): string {
  const host = req.headers.host && PLAIN_HOST.test(req.headers.host) ? req.headers.host : ownHost;
  const forwarded = req.headers["x-forwarded-proto"];
  const scheme = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return `${scheme}://${host}${req.url ?? "/"}`;
}

export async function startAppServer({ dev, port, hostname }: AppServerOptions): Promise<void> {
  (process.env as Record<string, string>)["NODE_ENV"] = dev ? "development" : "production";
  // The API dispatcher is registered only in this server, not under `next dev`/`next start`.
  process.env["CLIENT_PORTALS_SERVER"] = "1";
  const ownHost = `${hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname}:${port}`;
  const origin = `http://${ownHost}`;

  const server = createServer({
    // An idle kept-alive connection stays open longer than the clients that reuse one wait: a load
    // balancer keeps its connections 60 s (AWS ALB's default), an API client a few seconds. With
    // Node's default of 5 s, a client sending its next request about 5 s after the last one races
    // the server closing the connection and gets a reset (ECONNRESET) instead of an answer.
    keepAliveTimeout: KEEP_ALIVE_MS,
  });
  // httpServer: in development Next.js takes the server's upgrade requests (its hot reloading).
  const app = next({ dev, dir: projectRoot(), hostname, port, httpServer: server });
  const nextHandler = app.getRequestHandler();
  await app.prepare();
  // Registered by app/api/dispatcher/route.ts once Next.js loads it (below): until then every
  // request goes through Next.js, which is correct, only slower.
  // Proxies in front whose X-Forwarded-For entries are trusted (lib/env.ts TRUSTED_PROXY_HOPS).
  const trustedProxyHops = Number(process.env["TRUSTED_PROXY_HOPS"] ?? 0) || 0;
  const dispatcherOf = () => (globalThis as Record<symbol, unknown>)[Symbol.for("client-portals.api-dispatcher")] as ApiDispatcher | undefined;

  const dispatch = getRequestListener(
    async (request, { incoming }) => {
      const response = await (incoming as ClaimedRequest)[HANDLER]!(request);
      // The handler answered without reading the whole body (a 413 on the declared length, a 401
      // before the body): the rest of it is still on the connection, where the next request of a
      // kept-alive connection would be read from. Close it after this response (RFC 9112 9.6);
      // the listener drains what arrives meanwhile, within a bound.
      if (!incoming.complete) response.headers.set("Connection", "close");
      return response;
    },
    {
      // The route handlers and Next.js keep Node's own Request and Response.
      overrideGlobalObjects: false,
      errorHandler: (error) => {
        process.stderr.write(`[server] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        // The spec's error shape, as lib/api/error-response.ts answers an unexpected error.
        return Response.json(
          { error: "server_error", error_description: "The server could not complete the request" },
          { status: 500, headers: { "Cache-Control": "no-store" } },
        );
      },
    },
  );

  const serve = (req: IncomingMessage, res: ServerResponse): void => {
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
    (req as ClaimedRequest)[HANDLER] = handler;
    // An absolute request target: the listener takes the URL as it is.
    req.url = absoluteUrl(req, ownHost);
    void dispatch(req, res);
  };
  const registerDispatcher = () =>
    fetch(`${origin}/api/dispatcher`).then(
      (r) => r.arrayBuffer(),
      () => undefined,
    );

  if (dev) {
    // Next.js's development server replaces an edited module in its module graph when a route
    // that uses it is requested. Before each API request, Next.js loads app/api/dispatcher, which
    // registers the table again when a module under it was edited: the dispatcher calls the
    // current modules. (Development only: a few milliseconds per request.)
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const rawPath = (req.url ?? "/").split("?")[0]!;
      if (rawPath === "/api/dispatcher" || !dispatcherOf()?.claims(rawPath)) return serve(req, res);
      void registerDispatcher().then(() => serve(req, res));
    });
  } else server.on("request", serve);

  let stopping = false;
  // While stopping, each response is the last on its connection (`Connection: close`), so that
  // keep-alive clients (a load balancer, the job engine) move to another instance instead of
  // holding this one open with new requests.
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
    if (stopping) res.shouldKeepAlive = false;
  });
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`[server] ${signal}: finishing requests in flight\n`);
    // As `next start` does: the exit code of a process ended by the signal (128 + its number).
    const code = 128 + (signal === "SIGINT" ? 2 : 15);
    server.close(() => {
      void app.close().finally(() => process.exit(code));
    });
    server.closeIdleConnections();
    // Connections that were busy close once their response is out; after the grace period the
    // rest are cut.
    const idle = setInterval(() => server.closeIdleConnections(), 200);
    idle.unref();
    setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);

  await new Promise<void>((resolve) => server.listen(port, hostname, resolve));
  process.stdout.write(`[server] Client Portals listening on ${origin} (${dev ? "development" : "production"}; API dispatched directly, pages by Next.js)\n`);
  // The first request runs instrumentation.ts (configuration check, event relay); the second loads
  // the API's route table in Next.js's module graph for route handlers (app/api/dispatcher).
  await fetch(`${origin}/healthz`).then(
    (r) => r.arrayBuffer(),
    () => undefined,
  );
  await registerDispatcher();
  if (!dispatcherOf()) process.stderr.write("[server] no API dispatcher was registered: the API goes through Next.js\n");
  process.stdout.write(`[server] ready\n`);
}
