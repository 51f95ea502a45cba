import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { sha256Hex } from "@/lib/crypto";
import { checkAuthorizeRequest, type AuthorizeParams, type AuthorizeRequest } from "@/lib/oauth/authorize";
import { createConsentToken, decideConsent } from "@/lib/oauth/consent";
import { createTestClient, createTestOrg, createTestUser } from "@/lib/test-support/fixtures";

// Approve and Deny against a real database: the code row written, and every refusal.

async function setup() {
  const org = await createTestOrg();
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  const member = await createTestUser({ orgId: org.id, role: "member" });
  const { client } = await createTestClient({ orgId: org.id, actorUserId: admin.id, scopes: ["portal:read", "task:read", "task:write"] });
  const params: AuthorizeParams = {
    client_id: client.clientId,
    response_type: "code",
    redirect_uri: "https://client.example/callback",
    scope: "portal:read task:read",
    state: "st-1",
  };
  const check = await checkAuthorizeRequest(params);
  if (check.kind !== "ok") throw new Error(`fixture request refused: ${JSON.stringify(check)}`);
  return { org, member, client, params, request: check.request };
}

function tokenFor(userId: string, request: AuthorizeRequest, now?: Date) {
  return createConsentToken({ userId, request, now });
}

describe("decideConsent", () => {
  it("approves the ticked scopes only: a code for them, returned with the state", async () => {
    const { member, params, request, client } = await setup();
    const target = new URL(
      await decideConsent({ userId: member.id, params, token: tokenFor(member.id, request), approve: true, checkedScopes: ["portal:read", "task:write"] }),
    );
    expect(target.origin + target.pathname).toBe("https://client.example/callback");
    expect(target.searchParams.get("state")).toBe("st-1");
    const code = target.searchParams.get("code");
    expect(code).toBeTruthy();
    const row = await db.oAuthAuthorizationCode.findUnique({ where: { codeHash: sha256Hex(code!) } });
    // task:write was ticked but never requested: ignored, the form can only narrow.
    expect(row).toMatchObject({ userId: member.id, clientId: client.id, scopes: ["portal:read"], redirectUri: "https://client.example/callback" });
  });

  it("denies on Deny and on Approve with nothing ticked, issuing no code", async () => {
    const { member, params, request, client } = await setup();
    const now = Date.now();
    for (const [i, [approve, checkedScopes]] of (
      [
        [false, ["portal:read"]],
        [true, []],
      ] as const
    ).entries()) {
      // Two forms (issued a second apart): each form is answered once.
      const token = tokenFor(member.id, request, new Date(now - i * 1000));
      const target = new URL(await decideConsent({ userId: member.id, params, token, approve, checkedScopes: [...checkedScopes] }));
      expect(target.searchParams.get("error")).toBe("access_denied");
      expect(target.searchParams.get("state")).toBe("st-1");
      expect(target.searchParams.has("code")).toBe(false);
    }
    expect(await db.oAuthAuthorizationCode.count({ where: { clientId: client.id } })).toBe(0);
  });

  it("refuses a form made for another user or another request", async () => {
    const { member, params, request, org } = await setup();
    const other = await createTestUser({ orgId: org.id });
    const forOther = await decideConsent({ userId: member.id, params, token: tokenFor(other.id, request), approve: true, checkedScopes: ["portal:read"] });
    expect(forOther).toBe("/oauth/error?reason=invalid_form");
    const widened = await decideConsent({
      userId: member.id,
      params: { ...params, scope: "portal:read task:read task:write" },
      token: tokenFor(member.id, request),
      approve: true,
      checkedScopes: ["task:write"],
    });
    expect(widened).toBe("/oauth/error?reason=invalid_form");
  });

  it("shows the screen again for an expired form", async () => {
    const { member, params, request } = await setup();
    const old = tokenFor(member.id, request, new Date(Date.now() - 11 * 60 * 1000));
    const target = await decideConsent({ userId: member.id, params, token: old, approve: true, checkedScopes: ["portal:read"] });
    expect(target).toMatch(/^\/oauth\/consent\?client_id=.*&expired=1$/);
  });

  it("refuses a user who is not a member of the client's organization, without redirecting", async () => {
    const { params, request } = await setup();
    const stranger = await createTestUser();
    const target = await decideConsent({ userId: stranger.id, params, token: tokenFor(stranger.id, request), approve: true, checkedScopes: ["portal:read"] });
    expect(target).toBe("/oauth/error?reason=not_member");
  });

  it("never redirects when the client is unknown or the redirect URI not registered", async () => {
    const { member, params, request } = await setup();
    const token = tokenFor(member.id, request);
    for (const changed of [{ client_id: "cpc_unknown" }, { redirect_uri: "https://evil.example/callback" }]) {
      const target = await decideConsent({ userId: member.id, params: { ...params, ...changed }, token, approve: true, checkedScopes: ["portal:read"] });
      expect(target.startsWith("/oauth/error?")).toBe(true);
    }
  });

  it("answers a form once: the same Approve sent again issues no second code", async () => {
    const { member, params, request, client } = await setup();
    const token = tokenFor(member.id, request);
    const approve = () => decideConsent({ userId: member.id, params, token, approve: true, checkedScopes: ["portal:read"] });
    const first = new URL(await approve());
    expect(first.searchParams.get("code")).toBeTruthy();
    expect(await approve()).toBe("/oauth/error?reason=used_form");
    expect(await approve()).toBe("/oauth/error?reason=used_form");
    expect(await db.oAuthAuthorizationCode.count({ where: { clientId: client.id } })).toBe(1);
  });

  it("lets only one of four concurrent submissions of the same form through", async () => {
    const { member, params, request, client } = await setup();
    const token = tokenFor(member.id, request);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => decideConsent({ userId: member.id, params, token, approve: true, checkedScopes: ["portal:read"] })),
    );
    expect(results.filter((r) => r === "/oauth/error?reason=used_form")).toHaveLength(3);
    expect(await db.oAuthAuthorizationCode.count({ where: { clientId: client.id } })).toBe(1);
  });

  it("counts Deny as the answer: the same form cannot approve afterwards", async () => {
    const { member, params, request, client } = await setup();
    const token = tokenFor(member.id, request);
    const denied = new URL(await decideConsent({ userId: member.id, params, token, approve: false, checkedScopes: ["portal:read"] }));
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(await decideConsent({ userId: member.id, params, token, approve: true, checkedScopes: ["portal:read"] })).toBe("/oauth/error?reason=used_form");
    expect(await db.oAuthAuthorizationCode.count({ where: { clientId: client.id } })).toBe(0);
  });

  it("a fresh form for the same request still works after one was answered", async () => {
    const { member, params, request } = await setup();
    await decideConsent({
      userId: member.id,
      params,
      token: tokenFor(member.id, request, new Date(Date.now() - 5000)),
      approve: true,
      checkedScopes: ["portal:read"],
    });
    const again = new URL(
      await decideConsent({ userId: member.id, params, token: tokenFor(member.id, request), approve: true, checkedScopes: ["portal:read"] }),
    );
    expect(again.searchParams.get("code")).toBeTruthy();
  });
});
