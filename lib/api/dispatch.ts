import { deployment, type Deployment } from "@/lib/security/deployment";
import { isPageRoute } from "@/lib/security/headers";
import { applyResponseHeaders, responseHeaders } from "@/lib/security/response-headers";

// The application server's own dispatch of the API (server/index.ts, in production and in
// development). Next.js's router and proxy.ts cost about 2-3 ms of CPU per request, more than a
// whole refresh grant of the anchor (oidc-provider), so the well-formed API requests skip them: a
// request whose path is exactly one of the route table's and whose method that route exports goes
// straight to the same route handler Next.js would call, with the response headers proxy.ts sets
// (lib/security/response-headers.ts). Anything else (an unknown path, a trailing slash, a method
// the route does not export, HEAD and OPTIONS, a path that is not valid percent-encoded UTF-8)
// returns null and goes through Next.js: those answers (404, 405, 308, the catch-all's JSON) are
// Next's and proxy's.

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS: ReadonlySet<string> = new Set<Method>(["GET", "POST", "PUT", "PATCH", "DELETE"]);

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** A route module as Next.js sees it: its exported method handlers (and other exports). */
export type RouteModule = Partial<Record<Method, unknown>> & Record<string, unknown>;

export interface RouteTable {
  /** `path` as the route's folders spell it: `/api/v1/portals/[portalId]/tasks`. */
  routes: { path: string; module: RouteModule }[];
  /** The catch-all route; never served here, listed so the table is complete. */
  fallback: RouteModule;
}

interface CompiledRoute {
  path: string;
  /** Literal segments as strings, dynamic ones as their parameter name in an object. */
  segments: (string | { param: string })[];
  handlers: Partial<Record<Method, Handler>>;
}

function compile(route: RouteTable["routes"][number]): CompiledRoute {
  const segments = route.path
    .split("/")
    .slice(1)
    .map((s) => {
      const dynamic = /^\[([A-Za-z]\w*)\]$/.exec(s);
      if (dynamic) return { param: dynamic[1]! };
      if (/[[\]]/.test(s)) throw new Error(`route table: ${route.path}: only [name] segments are supported`);
      return s;
    });
  const handlers: Partial<Record<Method, Handler>> = {};
  for (const method of METHODS) {
    const handler = route.module[method as Method];
    if (typeof handler === "function") handlers[method as Method] = handler as Handler;
  }
  if (Object.keys(handlers).length === 0) throw new Error(`route table: ${route.path} exports no method handler`);
  return { path: route.path, segments, handlers };
}

/** The route and decoded parameters for a raw (still percent-encoded) path, or null. */
function match(routes: CompiledRoute[], rawPath: string): { route: CompiledRoute; params: Record<string, string> } | null {
  const parts = rawPath.split("/").slice(1);
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const segment = route.segments[i]!;
      const part = parts[i]!;
      if (typeof segment === "string") ok = segment === part;
      else if (part === "") ok = false;
      else {
        let value: string;
        try {
          value = decodeURIComponent(part);
        } catch {
          return null;
        }
        // Not well-formed text: proxy.ts sends such paths to the catch-all (lib/api/api-paths.ts).
        if (!value.isWellFormed()) return null;
        params[segment.param] = value;
      }
    }
    if (ok) return { route, params };
  }
  return null;
}

/** Where app/api/dispatcher/route.ts leaves the dispatcher for the application server (server/app-server.ts). */
const API_DISPATCHER = Symbol.for("client-portals.api-dispatcher");

export interface ApiDispatcher {
  /** Whether a path may be the dispatcher's at all (a prefix check, before anything else). */
  claims(pathname: string): boolean;
  /**
   * The route handler for this method and raw (still percent-encoded) path, with its parameters
   * bound and proxy.ts's security headers added to its response; null when Next.js must answer
   * (see above). Decided before the request's body is read, so Next.js can still read it.
   */
  find(method: string, rawPath: string): ((req: Request) => Promise<Response>) | null;
}

export interface DispatcherOptions {
  readDeployment?: () => Deployment;
}

export function createApiDispatcher(table: RouteTable, { readDeployment = deployment }: DispatcherOptions = {}): ApiDispatcher {
  const headersByRoute = new Map<string, Record<string, string>>();
  /**
   * The response headers proxy.ts sets too (lib/security/response-headers.ts). These are data
   * routes: their policy has no nonce and depends only on the route, so it is worked out once per
   * route.
   */
  const withResponseHeaders = (response: Response, route: CompiledRoute): Response => {
    let headers = headersByRoute.get(route.path);
    if (!headers) {
      if (isPageRoute(route.path)) throw new Error(`${route.path} is not a data route: it needs proxy.ts's nonce`);
      headers = responseHeaders(route.path, "", readDeployment);
      headersByRoute.set(route.path, headers);
    }
    return applyResponseHeaders(response, headers);
  };
  const routes = table.routes.map(compile);
  const prefixes = [...new Set(routes.map((r) => `/${String(r.segments[0])}/`))];
  return {
    claims: (pathname) => prefixes.some((p) => pathname.startsWith(p)),
    find(method, rawPath) {
      if (!METHODS.has(method)) return null;
      const found = match(routes, rawPath);
      const handler = found?.route.handlers[method as Method];
      if (!found || !handler) return null;
      const { route, params } = found;
      return (req) => handler(req, { params: Promise.resolve(params) }).then((response) => withResponseHeaders(response, route));
    },
  };
}

/**
 * Makes a dispatcher of `table` the one the application server uses (server/index.ts sets
 * CLIENT_PORTALS_SERVER; under `next dev` or `next start` there is no such server, and nothing
 * is registered). Called again with a newer table, the newer one serves from then on.
 */
export function registerApiDispatcher(table: RouteTable): void {
  if (process.env["CLIENT_PORTALS_SERVER"] !== "1") return;
  (globalThis as Record<symbol, unknown>)[API_DISPATCHER] = createApiDispatcher(table);
}
