import { authenticate } from "./auth";
import { mapError } from "./error-response";
import { API_OPERATIONS } from "./openapi/operations";
import { countRequest, rateLimitError, rateLimitHeaders } from "./rate-limit";
import { requestIdOf } from "./request-id";
import { jsonResponse, standardHeaders } from "./response";
import { AppError } from "@/lib/errors";

// What no route handler answers itself: an unknown path (D2: JSON 404), a method a route does not
// export (Next.js would answer an empty 405), and a path that is not valid percent-encoded UTF-8
// (Next.js fails decoding it before any handler, with a plain-text 500). proxy.ts sends the last
// two here (the catch-all route) by a rewrite to fallbackPathname(original path). The original
// travels in the path because a rewrite's request headers did not reach the route handler in the
// production server (Next.js 16.4); a client that calls such a path itself only names the path
// whose 404 or 405 it gets.

const FALLBACK_PREFIX = "/api/v1/_fallback/";

/** Where proxy.ts rewrites to (the catch-all route serves it): the raw path, encoded as one segment. */
export function fallbackPathname(rawPathname: string): string {
  return FALLBACK_PREFIX + encodeURIComponent(rawPathname);
}

/** The path a request to the catch-all route is about: the original one when proxy.ts rewrote it. */
export function originalPathname(req: Request): string {
  const pathname = new URL(req.url).pathname;
  if (!pathname.startsWith(FALLBACK_PREFIX)) return pathname;
  try {
    return decodeURIComponent(pathname.slice(FALLBACK_PREFIX.length));
  } catch {
    return pathname;
  }
}

function errorResponse(req: Request, error: AppError, extra: Record<string, string> = {}): Response {
  const { status, body } = mapError(error);
  return jsonResponse(status, JSON.stringify(body), { ...standardHeaders(requestIdOf(req)), ...extra });
}

const TEMPLATES = API_OPERATIONS.map((op) => ({
  method: op.method,
  pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
}));

/** The methods the API serves at a path; empty when no operation has it. */
export function allowedMethods(pathname: string): string[] {
  return [...new Set(TEMPLATES.filter((t) => t.pattern.test(pathname)).map((t) => t.method))];
}

/** True when every segment of the raw (still percent-encoded) path decodes to well-formed text. */
export function isDecodablePath(rawPathname: string): boolean {
  try {
    return rawPathname.split("/").every((segment) => decodeURIComponent(segment).isWellFormed());
  } catch {
    return false;
  }
}

/** Why proxy.ts must send a request to the catch-all route, or null when its route answers it. */
export function fallbackOf(method: string, rawPathname: string): "bad_path" | "method_not_allowed" | null {
  if (!isDecodablePath(rawPathname)) return "bad_path";
  const allowed = allowedMethods(rawPathname);
  if (allowed.length === 0 || allowed.includes(method) || (method === "HEAD" && allowed.includes("GET"))) return null;
  return "method_not_allowed";
}

/**
 * 405 as JSON with `Allow` when the path exists but not for this method; null otherwise. Next.js
 * would answer an unexported method with an empty 405, which is not the API's error shape (D2).
 */
export function methodNotAllowed(req: Request, pathname = new URL(req.url).pathname): Response | null {
  if (fallbackOf(req.method, pathname) !== "method_not_allowed") return null;
  const allowed = allowedMethods(pathname);
  return errorResponse(req, new AppError("method_not_allowed", `${req.method} is not allowed here; use ${allowed.join(", ")}`), { Allow: allowed.join(", ") });
}

/**
 * The catch-all route, any method: 405, or 404 not_found (D2, D3, D4), no token needed. With a
 * valid token the request counts against the client's daily budget like any other and carries the
 * X-RateLimit-* headers (D7), or is refused with 429 when the budget is spent.
 */
export async function unknownApiPath(req: Request): Promise<Response> {
  const pathname = originalPathname(req);
  const metered = await meter(req);
  if (metered.limited) return errorResponse(req, metered.limited, metered.headers);
  const notAllowed = isDecodablePath(pathname) ? methodNotAllowed(req, pathname) : null;
  if (notAllowed) {
    for (const [name, value] of Object.entries(metered.headers)) notAllowed.headers.set(name, value);
    return notAllowed;
  }
  // A path that is not valid text is named by nothing: D4's 404, without echoing it.
  const shown = isDecodablePath(pathname) ? pathname : "this path";
  return errorResponse(req, new AppError("not_found", `No API endpoint at ${req.method} ${shown}`), metered.headers);
}

/** Counts a request that carries a valid token; a missing or bad token is not an error here. */
async function meter(req: Request): Promise<{ headers: Record<string, string>; limited: AppError | null }> {
  if (!req.headers.has("authorization")) return { headers: {}, limited: null };
  const auth = await authenticate(req).catch(() => null);
  if (!auth) return { headers: {}, limited: null };
  const rate = await countRequest(auth.clientRecordId);
  return { headers: rateLimitHeaders(rate), limited: rateLimitError(rate) };
}
