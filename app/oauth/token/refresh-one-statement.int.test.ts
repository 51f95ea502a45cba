import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { verifyAccessToken } from "@/lib/oauth/access-token";
import { revokeGrantBySystem } from "@/lib/oauth/grants";
import { refreshInOneStatement } from "@/lib/oauth/token/refresh";
import { refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { basicAuth, chainOf, createOAuthSetup, creds, obtainTokens, postToken, refresh, rowOf } from "@/test/oauth/token-helpers";

// The one-statement refresh (lib/oauth/token/refresh.ts): the usual refresh rotates in
// one statement; whatever it does not rotate gets the answers the precise path gave before.

const asParams = (values: Record<string, string>) => new Map(Object.entries(values));

describe("the one-statement refresh", () => {
  it("rotates a live token once, with what the access token needs, and touches the grant", async () => {
    const setup = await createOAuthSetup();
    const first = await obtainTokens(setup, ["portal:read", "task:read"]);
    // Last used two minutes ago: the refresh writes it again ("last used" is kept to the minute).
    await db.oAuthGrant.update({ where: { id: (await rowOf(first.refresh_token)).grantId }, data: { lastUsedAt: new Date(Date.now() - 120_000) } });
    const result = await refreshInOneStatement(
      { clientId: setup.client.clientId, clientSecret: setup.secret },
      asParams({ grant_type: "refresh_token", refresh_token: first.refresh_token, scope: "task:read" }),
    );
    expect(result).not.toBeNull();
    const parent = await rowOf(first.refresh_token);
    expect(result).toMatchObject({
      clientId: setup.client.clientId,
      granted: { grantId: parent.grantId, userId: setup.user.id, orgId: setup.org.id, scopes: ["task:read"] },
    });
    const child = await rowOf(result!.granted.refreshToken);
    expect(parent.rotatedAt).not.toBeNull();
    // RFC 6749 6: the child keeps the presented token's scope, not the narrowed one.
    expect(child).toMatchObject({ parentId: parent.id, grantId: parent.grantId, scopes: ["portal:read", "task:read"], rotatedAt: null, revokedAt: null });
    expect(child.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const grant = await db.oAuthGrant.findUniqueOrThrow({ where: { id: parent.grantId } });
    expect(grant.lastUsedAt?.getTime()).toBe(parent.rotatedAt?.getTime());
    // A second use of the first token is not for this statement: it rotates nothing and leaves the answer to the precise path.
    expect(
      await refreshInOneStatement({ clientId: setup.client.clientId, clientSecret: setup.secret }, asParams({ refresh_token: first.refresh_token })),
    ).toBeNull();
    expect(await chainOf(first.refresh_token)).toHaveLength(2);
    // Used again within the minute: rotated, and lastUsedAt left as it is (one row version fewer per grant).
    const again = await refreshInOneStatement(
      { clientId: setup.client.clientId, clientSecret: setup.secret },
      asParams({ grant_type: "refresh_token", refresh_token: result!.granted.refreshToken }),
    );
    expect(again).not.toBeNull();
    expect((await rowOf(result!.granted.refreshToken)).rotatedAt).not.toBeNull();
    expect((await db.oAuthGrant.findUniqueOrThrow({ where: { id: parent.grantId } })).lastUsedAt?.getTime()).toBe(parent.rotatedAt?.getTime());
  });

  it("rotates nothing for a wrong secret, an unknown client, another client's token or a scope it cannot grant", async () => {
    const setup = await createOAuthSetup();
    const other = await createOAuthSetup();
    const mine = await obtainTokens(setup, ["portal:read"]);
    const theirs = await obtainTokens(other);
    const attempts: [{ clientId: string; clientSecret: string }, Record<string, string>][] = [
      [{ clientId: setup.client.clientId, clientSecret: `${setup.secret}x` }, { refresh_token: mine.refresh_token }],
      [{ clientId: "cpc_unknown", clientSecret: setup.secret }, { refresh_token: mine.refresh_token }],
      [{ clientId: other.client.clientId, clientSecret: other.secret }, { refresh_token: mine.refresh_token }],
      [{ clientId: setup.client.clientId, clientSecret: setup.secret }, { refresh_token: theirs.refresh_token }],
      [
        { clientId: setup.client.clientId, clientSecret: setup.secret },
        { refresh_token: mine.refresh_token, scope: "task:read" },
      ],
      [
        { clientId: setup.client.clientId, clientSecret: setup.secret },
        { refresh_token: mine.refresh_token, scope: "admin" },
      ],
    ];
    for (const [credentials, params] of attempts) expect(await refreshInOneStatement(credentials, asParams(params))).toBeNull();
    expect((await rowOf(mine.refresh_token)).rotatedAt).toBeNull();
    expect((await rowOf(theirs.refresh_token)).rotatedAt).toBeNull();
  });

  it("8 concurrent refreshes of one token: one rotation, every answer 200 with the same current token, no fork", async () => {
    const setup = await createOAuthSetup();
    const first = await obtainTokens(setup);
    const results = await Promise.all(Array.from({ length: 8 }, () => refresh(setup, first.refresh_token)));

    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.body.refresh_token)).size).toBe(1);
    expect(new Set(results.map((r) => r.body.access_token)).size).toBe(8);
    for (const r of results) await expect(verifyAccessToken(r.body.access_token as string)).resolves.toMatchObject({ userId: setup.user.id });
    const chain = await chainOf(first.refresh_token);
    expect(chain).toHaveLength(2);
    expect(chain[1]).toMatchObject({ parentId: chain[0]?.id, tokenHash: refreshTokenHash(results[0]?.body.refresh_token as string), rotatedAt: null });
    expect(chain.every((t) => t.revokedAt === null)).toBe(true);
    // The chain goes on from the one current token.
    expect((await refresh(setup, results[0]?.body.refresh_token as string)).status).toBe(200);
  });

  it("concurrent refreshes and a revocation of the grant: no deadlock, and nothing of the chain stays usable", async () => {
    const setup = await createOAuthSetup();
    const first = await obtainTokens(setup);
    const { grantId } = await rowOf(first.refresh_token);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => refresh(setup, first.refresh_token)),
      revokeGrantBySystem(grantId, "client_revoked").then(() => null),
      ...Array.from({ length: 4 }, () => refresh(setup, first.refresh_token)),
    ]);
    for (const r of results) if (r) expect(r.status === 200 || (r.status === 400 && r.body.error === "invalid_grant")).toBe(true);
    const chain = await chainOf(first.refresh_token);
    expect(chain.length).toBeLessThanOrEqual(2);
    expect(chain.every((t) => t.revokedAt !== null)).toBe(true);
    for (const r of results) if (r?.status === 200) expect((await refresh(setup, r.body.refresh_token as string)).body.error).toBe("invalid_grant");
  });

  it("gives the errors of before: wrong secret or unknown client 401 (body and Basic), a missing token after client authentication", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup);
    for (const c of [
      { client_id: setup.client.clientId, client_secret: "wrong" },
      { client_id: "cpc_unknown", client_secret: setup.secret },
    ]) {
      const res = await postToken({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, ...c });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "invalid_client", error_description: "Client authentication failed" });
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="client-portals"');
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const basicWrong = await postToken(
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      { headers: { authorization: basicAuth(setup.client.clientId, `${setup.secret}x`) } },
    );
    expect([basicWrong.status, basicWrong.body.error]).toEqual([401, "invalid_client"]);
    // Client authentication comes first, as before: a wrong secret without a token is invalid_client.
    const noToken = await postToken({ grant_type: "refresh_token", client_id: setup.client.clientId, client_secret: "wrong" });
    expect([noToken.status, noToken.body.error]).toEqual([401, "invalid_client"]);
    const missing = await postToken({ grant_type: "refresh_token", ...creds(setup) });
    expect(missing.body).toEqual({ error: "invalid_request", error_description: "Missing parameter: refresh_token" });
    expect((await rowOf(tokens.refresh_token)).rotatedAt).toBeNull();

    const basic = await postToken(
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      { headers: { authorization: basicAuth(setup.client.clientId, setup.secret) } },
    );
    expect(basic.status).toBe(200);
    expect(basic.headers.get("cache-control")).toBe("no-store");
    expect(basic.headers.get("pragma")).toBe("no-cache");
    expect(Object.keys(basic.body)).toEqual(["access_token", "token_type", "expires_in", "refresh_token", "scope"]);
  });

  it("gives the errors of before: another client's token, a revoked grant, a removed member, an expired token", async () => {
    const setup = await createOAuthSetup();
    const other = await createOAuthSetup();
    const theirs = await obtainTokens(other);
    const foreign = await refresh(setup, theirs.refresh_token);
    expect([foreign.status, foreign.body]).toEqual([400, { error: "invalid_grant", error_description: "The refresh token is invalid" }]);

    const revoked = await obtainTokens(setup);
    await revokeGrantBySystem((await rowOf(revoked.refresh_token)).grantId, "user_revoked");
    expect((await refresh(setup, revoked.refresh_token)).body).toEqual({ error: "invalid_grant", error_description: "The refresh token has been revoked" });

    const expired = await obtainTokens(setup);
    await db.oAuthRefreshToken.update({ where: { tokenHash: refreshTokenHash(expired.refresh_token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await refresh(setup, expired.refresh_token)).body).toEqual({ error: "invalid_grant", error_description: "The refresh token has expired" });

    const left = await obtainTokens(setup);
    await db.membership.delete({ where: { orgId_userId: { orgId: setup.org.id, userId: setup.user.id } } });
    expect((await refresh(setup, left.refresh_token)).body).toEqual({
      error: "invalid_grant",
      error_description: "The user is no longer a member of the organization",
    });
    for (const t of [theirs, revoked, expired, left]) expect((await rowOf(t.refresh_token)).rotatedAt).toBeNull();
  });

  it("gives the errors of before for scopes: widening or unknown is invalid_scope, a client narrowed to none is invalid_scope", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup, ["portal:read"]);
    const widened = await refresh(setup, tokens.refresh_token, { scope: "portal:read task:write" });
    expect([widened.status, widened.body.error]).toEqual([400, "invalid_scope"]);
    await db.oAuthClient.update({ where: { id: setup.client.id }, data: { allowedScopes: ["task:read"] } });
    const none = await refresh(setup, tokens.refresh_token);
    expect(none.body).toEqual({ error: "invalid_scope", error_description: "The client may no longer use any of these scopes" });
    expect((await rowOf(tokens.refresh_token)).rotatedAt).toBeNull();
  });
});
