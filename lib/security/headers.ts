// The security headers of every response (pages, route handlers, static files), decided in one
// place and set by proxy.ts. docs/decisions.md "Security headers" says why each value is what it is.

/** One route group's Content-Security-Policy: directive → sources. `{nonce}` becomes 'nonce-…'. */
type CspDirectives = Record<string, string[]>;

export interface SecurityContext {
  pathname: string;
  /** A fresh random value per request (pages only; JSON routes need none). */
  nonce: string;
  /** APP_URL is https: the deployment is served over TLS, so HSTS is sent. */
  https: boolean;
  /** `next dev`: React Refresh evaluates code and the dev overlay injects styles. */
  development: boolean;
  /** Origins the browser may talk to besides this one (the object store, for direct uploads). */
  connectOrigins: string[];
}

const NONCE = "{nonce}";

/** Pages: scripts only with this response's nonce ('strict-dynamic' lets them load Next's chunks). */
const PAGE_POLICY: CspDirectives = {
  "default-src": ["'self'"],
  "script-src": ["'self'", NONCE, "'strict-dynamic'"],
  // <style> elements need the nonce; style="" attributes (React style props, positioning by UI
  // primitives) are allowed: they cannot run script.
  "style-src": ["'self'", NONCE],
  "style-src-attr": ["'unsafe-inline'"],
  "img-src": ["'self'", "data:", "blob:"],
  "font-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  // pdf.js's worker for PDF previews (app/pdf-worker.mjs): same-origin scripts only, as workers.
  "worker-src": ["'self'"],
  "object-src": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
};

/** JSON and other non-HTML responses: nothing may load or frame them. */
const DATA_POLICY: CspDirectives = {
  "default-src": ["'none'"],
  "frame-ancestors": ["'none'"],
};

interface RouteRule {
  /** The path itself and everything below it. */
  prefix: string;
  /** Directives that replace the page policy's for this route (an empty list drops one). */
  csp?: CspDirectives | "data";
}

/**
 * Per-route exceptions, the only place to loosen or tighten the policy. First match wins.
 * - The API, OAuth endpoints that answer JSON, the job engine and metadata: the data policy.
 * - The consent page: its Approve form ends in a redirect to the client's redirect_uri, which
 *   Chromium checks against form-action, so form-action is not restricted there.
 * - The API reference (Scalar) injects <style> elements without a nonce.
 */
const ROUTE_RULES: readonly RouteRule[] = [
  { prefix: "/api/", csp: "data" },
  { prefix: "/.well-known/", csp: "data" },
  { prefix: "/oauth/token", csp: "data" },
  { prefix: "/oauth/revoke", csp: "data" },
  { prefix: "/healthz", csp: "data" },
  { prefix: "/readyz", csp: "data" },
  { prefix: "/oauth/", csp: { "form-action": [] } },
  { prefix: "/docs/api", csp: { "style-src": ["'self'", "'unsafe-inline'"] } },
];

function ruleFor(pathname: string): RouteRule | undefined {
  return ROUTE_RULES.find((r) => {
    const base = r.prefix.replace(/\/$/, "");
    return pathname === base || pathname.startsWith(`${base}/`);
  });
}

/** Whether the response gets the page policy (with a nonce) rather than the data policy. */
export function isPageRoute(pathname: string): boolean {
  return ruleFor(pathname)?.csp !== "data";
}

export function contentSecurityPolicy(ctx: SecurityContext): string {
  const rule = ruleFor(ctx.pathname);
  if (rule?.csp === "data") return serialize(DATA_POLICY, ctx.nonce);
  const directives: CspDirectives = { ...PAGE_POLICY, ...rule?.csp };
  directives["connect-src"] = [...(directives["connect-src"] ?? []), ...ctx.connectOrigins];
  if (ctx.development) {
    directives["script-src"] = [...(directives["script-src"] ?? []), "'unsafe-eval'"];
    // The dev overlay and React Refresh inject <style> elements without a nonce; a nonce in the
    // list would make browsers ignore 'unsafe-inline'.
    directives["style-src"] = ["'self'", "'unsafe-inline'"];
    directives["connect-src"] = [...(directives["connect-src"] ?? []), "ws:", "wss:"];
  }
  return serialize(directives, ctx.nonce);
}

function serialize(directives: CspDirectives, nonce: string): string {
  return Object.entries(directives)
    .filter(([, sources]) => sources.length > 0)
    .map(([name, sources]) => [name, ...sources.map((s) => (s === NONCE ? `'nonce-${nonce}'` : s))].join(" "))
    .join("; ");
}

/** Every header but the CSP; the same on every response. */
function staticSecurityHeaders(ctx: Pick<SecurityContext, "https">): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    // Old browsers without frame-ancestors.
    "X-Frame-Options": "DENY",
    // Links to other sites get the origin only; portal and file ids in paths stay here.
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()",
    ...(ctx.https ? { "Strict-Transport-Security": "max-age=63072000" } : {}),
  };
}

export function securityHeaders(ctx: SecurityContext): Record<string, string> {
  return { ...staticSecurityHeaders(ctx), "Content-Security-Policy": contentSecurityPolicy(ctx) };
}

/** 128 random bits, base64: a CSP nonce. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}
