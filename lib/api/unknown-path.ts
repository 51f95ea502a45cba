import { admit } from "./auth";
import { mapError } from "./error-response";
import { allowedMethods, fallbackOf, isDecodablePath, originalPathname } from "./api-paths";
import { rateLimitError, rateLimitHeaders } from "./rate-limit";
import { requestIdOf } from "./request-id";
import { jsonResponse, standardHeaders } from "./response";
import { AppError } from "@/lib/errors";

// What no route handler answers itself: an unknown path (D2: JSON 404), a method a route does not
// export (Next.js would answer an empty 405), and a path that is not valid percent-encoded UTF-8
// (Next.js fails decoding it before any handler, with a plain-text 500). proxy.ts sends the last
// two here (the catch-all route) by a rewrite to fallbackPathname(original path) (api-paths.ts).

function errorResponse(req: Request, error: AppError, extra: Record<string, string> = {}): Response {
  const { status, body } = mapError(error);
  return jsonResponse(status, JSON.stringify(body), { ...standardHeaders(requestIdOf(req)), ...extra });
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
  const admitted = await admit(req).catch(() => null);
  if (!admitted) return { headers: {}, limited: null };
  return { headers: rateLimitHeaders(admitted.rate), limited: rateLimitError(admitted.rate) };
}
