import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isPageRoute, securityHeaders, type SecurityContext } from "./headers";

const ctx = (over: Partial<SecurityContext> = {}): SecurityContext => ({
  pathname: "/sign-in",
  nonce: "abc",
  https: false,
  development: false,
  connectOrigins: [],
  ...over,
});
const directives = (csp: string) => new Map(csp.split("; ").map((d) => [d.split(" ")[0], d.slice(d.indexOf(" ") + 1)]));

describe("security headers", () => {
  it("pages: scripts only with the nonce, nothing framed, no eval", () => {
    const csp = directives(contentSecurityPolicy(ctx()));
    expect(csp.get("script-src")).toBe("'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp.get("style-src")).toBe("'self' 'nonce-abc'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(csp.get("form-action")).toBe("'self'");
    expect(csp.get("object-src")).toBe("'none'");
  });

  it.each(["/api/v1/portals", "/api", "/api/auth/session", "/.well-known/jwks.json", "/oauth/token", "/oauth/revoke", "/healthz", "/readyz"])(
    "%s gets the data policy",
    (pathname) => {
      expect(isPageRoute(pathname)).toBe(false);
      expect(contentSecurityPolicy(ctx({ pathname }))).toBe("default-src 'none'; frame-ancestors 'none'");
    },
  );

  it.each(["/", "/sign-in", "/oauth/consent", "/oauth/tokens-page", "/apiary", "/org/x/settings/api"])("%s is a page", (pathname) => {
    expect(isPageRoute(pathname)).toBe(true);
  });

  it("the consent screen may redirect its form to the client; the API reference may inline styles", () => {
    expect(directives(contentSecurityPolicy(ctx({ pathname: "/oauth/consent" }))).has("form-action")).toBe(false);
    const docs = directives(contentSecurityPolicy(ctx({ pathname: "/docs/api" })));
    expect(docs.get("style-src")).toBe("'self' 'unsafe-inline'");
    expect(docs.get("script-src")).toBe("'self' 'nonce-abc' 'strict-dynamic'");
  });

  it("next dev only: eval for React Refresh, inline styles for the overlay, websockets for reload", () => {
    const csp = directives(contentSecurityPolicy(ctx({ development: true })));
    expect(csp.get("script-src")).toContain("'unsafe-eval'");
    expect(csp.get("style-src")).toBe("'self' 'unsafe-inline'");
    expect(csp.get("connect-src")).toBe("'self' ws: wss:");
  });

  it("the object store's origin may be fetched from pages", () => {
    expect(directives(contentSecurityPolicy(ctx({ connectOrigins: ["http://127.0.0.1:9000"] }))).get("connect-src")).toBe("'self' http://127.0.0.1:9000");
  });

  it("HSTS only when served over https", () => {
    expect(securityHeaders(ctx())["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders(ctx({ https: true }))["Strict-Transport-Security"]).toBe("max-age=63072000");
    expect(securityHeaders(ctx())).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
  });
});
