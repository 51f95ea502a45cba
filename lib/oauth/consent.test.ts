import { describe, expect, it } from "vitest";
import type { AuthorizeCheck, AuthorizeRequest } from "@/lib/oauth/authorize";
import {
  authorizeParamsFrom,
  authorizeQuery,
  authorizeRedirect,
  authorizeResponse,
  CONSENT_TOKEN_TTL_SECONDS,
  MAX_AUTHORIZE_LOCATION,
  createConsentToken,
  denialRedirect,
  verifyConsentToken,
} from "./consent";

const secret = "a-test-secret-that-is-at-least-32-characters";
const userId = "5b0f3c1e-8a4e-4c39-9d7f-3f1f0a6b2c11";

const request: AuthorizeRequest = {
  client: { id: "0e6b7f1a-1111-4222-8333-944455556666", clientId: "cpc_abc", name: "Ledger Sync", orgId: "org-1", orgName: "Demo" },
  redirectUri: "https://client.example/cb?x=1",
  scopes: ["portal:read", "task:read"],
  state: "s-123",
  codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  codeChallengeMethod: "S256",
  resource: null,
};

const params = {
  client_id: "cpc_abc",
  response_type: "code",
  redirect_uri: "https://client.example/cb?x=1",
  scope: "portal:read task:read",
  state: "s-123",
  code_challenge: null,
  code_challenge_method: null,
};

describe("authorize parameters", () => {
  it("reads the known parameters from a query, a form or Next's searchParams, first value wins", () => {
    const query = new URLSearchParams("client_id=a&client_id=b&scope=portal%3Aread&extra=1");
    expect(authorizeParamsFrom(query)).toMatchObject({ client_id: "a", scope: "portal:read", state: null });
    expect(authorizeParamsFrom({ client_id: ["a", "b"], state: "x" })).toMatchObject({ client_id: "a", state: "x", redirect_uri: null });
    const form = new FormData();
    form.set("redirect_uri", "https://c.example/cb");
    expect(authorizeParamsFrom(form).redirect_uri).toBe("https://c.example/cb");
    expect(authorizeParamsFrom(query)).not.toHaveProperty("extra");
  });

  it("writes back only the parameters given, encoded", () => {
    const query = authorizeQuery(params);
    expect(new URLSearchParams(query).get("redirect_uri")).toBe("https://client.example/cb?x=1");
    expect(query).not.toContain("code_challenge");
  });
});

describe("authorizeRedirect", () => {
  const ok: AuthorizeCheck = { kind: "ok", request };

  it("shows our error page, never the client, when the client or redirect URI is not trusted", () => {
    const target = authorizeRedirect({ kind: "error_page", message: "This application is not registered." }, params, true);
    expect(target.startsWith("/oauth/error?")).toBe(true);
    // The page checks the parameters again; no message text travels in the URL.
    expect(target).not.toContain("registered");
  });

  it("sends other errors to the registered redirect URI with the state", () => {
    const check: AuthorizeCheck = {
      kind: "redirect_error",
      redirectUri: "https://client.example/cb?x=1",
      error: "invalid_scope",
      description: "Unknown scope: admin",
      state: "s-1",
    };
    const url = new URL(authorizeRedirect(check, params, false));
    expect(url.origin + url.pathname).toBe("https://client.example/cb");
    expect(Object.fromEntries(url.searchParams)).toEqual({ x: "1", error: "invalid_scope", error_description: "Unknown scope: admin", state: "s-1" });
  });

  it("asks for sign-in first, coming back to the same authorize URL", () => {
    const target = authorizeRedirect(ok, params, false);
    expect(target.startsWith("/sign-in?callbackUrl=")).toBe(true);
    const back = new URLSearchParams(target.split("?")[1]).get("callbackUrl");
    expect(back).toBe(`/oauth/authorize?${authorizeQuery(params)}`);
  });

  it("sends a signed-in user to the consent screen with the same parameters", () => {
    expect(authorizeRedirect(ok, params, true)).toBe(`/oauth/consent?${authorizeQuery(params)}`);
  });
});

describe("consent token", () => {
  const now = new Date("2026-03-01T12:00:00Z");
  const token = createConsentToken({ userId, request, now, secret });
  const verify = (overrides: Partial<{ token: string; userId: string; request: AuthorizeRequest; now: Date; secret: string }> = {}) =>
    verifyConsentToken({ token, userId, request, now, secret, ...overrides });

  it("is valid for the same user and request within ten minutes", () => {
    expect(verify()).toBe("valid");
    expect(verify({ now: new Date(now.getTime() + CONSENT_TOKEN_TTL_SECONDS * 1000) })).toBe("valid");
  });

  it("expires after ten minutes", () => {
    expect(verify({ now: new Date(now.getTime() + (CONSENT_TOKEN_TTL_SECONDS + 1) * 1000) })).toBe("expired");
  });

  it("is refused for another user, another secret, or a token from the future", () => {
    expect(verify({ userId: "another-user" })).toBe("invalid");
    expect(verify({ secret: `${secret}-other` })).toBe("invalid");
    expect(verify({ now: new Date(now.getTime() - 5 * 60 * 1000) })).toBe("invalid");
  });

  it.each([
    ["client", { client: { ...request.client, clientId: "cpc_other" } }],
    ["redirect URI", { redirectUri: "https://client.example/cb?x=2" }],
    ["scopes", { scopes: ["portal:read", "task:read", "task:write"] }],
    ["state", { state: "s-124" }],
    ["absent state", { state: null }],
    ["PKCE challenge", { codeChallenge: null, codeChallengeMethod: null }],
  ] as const)("is refused when the %s differs", (_, change) => {
    expect(verify({ request: { ...request, ...change } as AuthorizeRequest })).toBe("invalid");
  });

  it("is refused when tampered with or malformed", () => {
    const [issuedAt, sig] = token.split(".") as [string, string];
    expect(verify({ token: `${Number(issuedAt) + 1}.${sig}` })).toBe("invalid");
    expect(verify({ token: `${issuedAt}.${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}` })).toBe("invalid");
    for (const bad of ["", "abc", `${issuedAt}`, `${issuedAt}.`, `x.${sig}`]) expect(verify({ token: bad })).toBe("invalid");
  });
});

describe("denialRedirect", () => {
  it("returns access_denied and the state to the client", () => {
    const url = new URL(denialRedirect(request));
    expect(url.searchParams.get("error")).toBe("access_denied");
    expect(url.searchParams.get("state")).toBe("s-123");
    expect(url.searchParams.get("x")).toBe("1");
    expect(url.searchParams.has("code")).toBe(false);
  });
});

describe("authorizeResponse", () => {
  it("redirects to the target, and answers 414 without a Location when the target is longer than clients read", async () => {
    const short = authorizeResponse("https://app.example/sign-in?callbackUrl=%2Foauth%2Fauthorize");
    expect(short.status).toBe(302);
    expect(short.headers.get("location")).toBe("https://app.example/sign-in?callbackUrl=%2Foauth%2Fauthorize");

    const atLimit = `https://app.example/oauth/error?state=${"x".repeat(MAX_AUTHORIZE_LOCATION - 38)}`;
    expect(atLimit).toHaveLength(MAX_AUTHORIZE_LOCATION);
    expect(authorizeResponse(atLimit).status).toBe(302);

    const long = authorizeResponse(`${atLimit}x`);
    expect(long.status).toBe(414);
    expect(long.headers.get("location")).toBeNull();
    expect(long.headers.get("cache-control")).toBe("no-store");
    expect(await long.text()).toContain("too long");
  });
});
