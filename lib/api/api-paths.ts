import { API_OPERATIONS } from "./openapi/operations";

// The /api/v1 path rules proxy.ts needs, without anything that reaches the database: which
// methods a path serves, whether a raw path decodes, and the catch-all's rewrite target. The
// original path travels in the rewritten one because a rewrite's request headers did not reach
// the route handler in the production server (Next.js 16.4); a client that calls such a path
// itself only names the path whose 404 or 405 it gets.

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
