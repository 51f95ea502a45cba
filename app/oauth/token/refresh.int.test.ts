import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { verifyAccessToken } from "@/lib/oauth/access-token";
import { refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { chainOf, createOAuthSetup, obtainTokens, refresh, rowOf } from "@/test/oauth/token-helpers";

describe("POST /oauth/token, refresh_token", () => {
  it("rotates: a new refresh token whose parent is the one presented, which is marked rotated", async () => {
    const setup = await createOAuthSetup();
    const first = await obtainTokens(setup);
    const res = await refresh(setup, first.refresh_token);

    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: first.scope });
    expect(res.body.refresh_token).not.toBe(first.refresh_token);
    await expect(verifyAccessToken(res.body.access_token as string)).resolves.toMatchObject({ userId: setup.user.id });
    const parent = await rowOf(first.refresh_token);
    const child = await rowOf(res.body.refresh_token as string);
    expect(parent.rotatedAt).not.toBeNull();
    expect(child).toMatchObject({ parentId: parent.id, grantId: parent.grantId, rotatedAt: null, revokedAt: null });
    expect(child.expiresAt.getTime()).toBeGreaterThan(parent.expiresAt.getTime());
    expect((await db.oAuthGrant.findUniqueOrThrow({ where: { id: parent.grantId } })).lastUsedAt).not.toBeNull();
  });

  it("within the grace, the previous token gets a new access token and the CURRENT refresh token; the chain does not fork", async () => {
    const setup = await createOAuthSetup();
    const first = await obtainTokens(setup);
    const second = await refresh(setup, first.refresh_token);
    const again = await refresh(setup, first.refresh_token);

    expect(again.status).toBe(200);
    expect(again.body.refresh_token).toBe(second.body.refresh_token);
    expect(again.body.access_token).not.toBe(second.body.access_token);
    await expect(verifyAccessToken(again.body.access_token as string)).resolves.toBeDefined();
    expect(await chainOf(first.refresh_token)).toHaveLength(2);
  });

  it("within the grace, a token two rotations old is refused and revokes the chain; only the previous token has the grace", async () => {
    const setup = await createOAuthSetup();
    const first = await obtainTokens(setup);
    const second = await refresh(setup, first.refresh_token);
    const third = await refresh(setup, second.body.refresh_token as string);
    expect(third.status).toBe(200);

    // The previous token (second) still gets the grace answer: the current refresh token.
    const retry = await refresh(setup, second.body.refresh_token as string);
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).toBe(third.body.refresh_token);
    expect(await chainOf(first.refresh_token)).toHaveLength(3);

    // The first token is two rotations old: refused, and the whole grant is revoked.
    const stale = await refresh(setup, first.refresh_token);
    expect(stale.status).toBe(400);
    expect(stale.body.error).toBe("invalid_grant");
    for (const access of [first.access_token, third.body.access_token as string, retry.body.access_token as string]) {
      await expect(verifyAccessToken(access)).rejects.toMatchObject({ code: "invalid_token" });
    }
    expect((await refresh(setup, third.body.refresh_token as string)).body.error).toBe("invalid_grant");
    const chain = await chainOf(first.refresh_token);
    expect(chain).toHaveLength(3);
    expect(chain.every((t) => t.revokedAt !== null)).toBe(true);
    expect((await db.oAuthGrant.findUniqueOrThrow({ where: { id: chain[0]?.grantId } })).revokedReason).toBe("refresh_token_reuse");
  });

  it("after the grace, the previous token revokes the whole chain, its access tokens included", async () => {
    const setup = await createOAuthSetup();
    const first = await obtainTokens(setup);
    const second = await refresh(setup, first.refresh_token);
    await db.oAuthRefreshToken.update({ where: { tokenHash: refreshTokenHash(first.refresh_token) }, data: { rotatedAt: new Date(Date.now() - 61_000) } });

    const replay = await refresh(setup, first.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    for (const access of [first.access_token, second.body.access_token as string]) {
      await expect(verifyAccessToken(access)).rejects.toMatchObject({ code: "invalid_token" });
    }
    expect((await refresh(setup, second.body.refresh_token as string)).body.error).toBe("invalid_grant");
    const chain = await chainOf(first.refresh_token);
    expect(chain.every((t) => t.revokedAt !== null)).toBe(true);
    expect((await db.oAuthGrant.findUniqueOrThrow({ where: { id: chain[0]?.grantId } })).revokedReason).toBe("refresh_token_reuse");
  });

  it("10 concurrent refreshes of one token give only 200 or invalid_grant, one child, one current token", async () => {
    const setup = await createOAuthSetup();
    const first = await obtainTokens(setup);
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh(setup, first.refresh_token)));

    for (const r of results) expect(r.status === 200 || (r.status === 400 && r.body.error === "invalid_grant")).toBe(true);
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.body.refresh_token)).size).toBe(1);
    const chain = await chainOf(first.refresh_token);
    expect(chain).toHaveLength(2);
    expect(chain.filter((t) => t.rotatedAt === null)).toHaveLength(1);
    expect(chain[1]?.parentId).toBe(chain[0]?.id);
    expect((await refresh(setup, ok[0]?.body.refresh_token as string)).status).toBe(200);
  });

  it("narrows the access token's scope on request, keeps the refresh token's, and refuses widening", async () => {
    const setup = await createOAuthSetup();
    const first = await obtainTokens(setup, ["portal:read", "task:read"]);
    const narrowed = await refresh(setup, first.refresh_token, { scope: "task:read" });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe("task:read");
    expect((await verifyAccessToken(narrowed.body.access_token as string)).scopes).toEqual(["task:read"]);
    // RFC 6749 6: the new refresh token has the scope of the one presented.
    const next = await refresh(setup, narrowed.body.refresh_token as string);
    expect(next.body.scope).toBe("portal:read task:read");

    const widened = await refresh(setup, next.body.refresh_token as string, { scope: "task:read task:write" });
    expect([widened.status, widened.body.error]).toEqual([400, "invalid_scope"]);
    const unknown = await refresh(setup, next.body.refresh_token as string, { scope: "admin" });
    expect([unknown.status, unknown.body.error]).toEqual([400, "invalid_scope"]);
    // A refused request rotates nothing.
    expect((await rowOf(next.body.refresh_token as string)).rotatedAt).toBeNull();
  });

  it("refuses an unknown, expired, revoked or another client's refresh token with invalid_grant", async () => {
    const setup = await createOAuthSetup();
    const other = await createOAuthSetup();
    const mine = await obtainTokens(setup);
    const theirs = await obtainTokens(other);

    expect((await refresh(setup, "cpr_unknown")).body.error).toBe("invalid_grant");
    const foreign = await refresh(setup, theirs.refresh_token);
    expect([foreign.status, foreign.body.error]).toEqual([400, "invalid_grant"]);
    expect((await rowOf(theirs.refresh_token)).rotatedAt).toBeNull();

    await db.oAuthRefreshToken.update({ where: { tokenHash: refreshTokenHash(mine.refresh_token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await refresh(setup, mine.refresh_token)).body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/expired/) });

    const again = await obtainTokens(setup);
    await db.oAuthRefreshToken.update({ where: { tokenHash: refreshTokenHash(again.refresh_token) }, data: { revokedAt: new Date() } });
    expect((await refresh(setup, again.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("refuses a refresh for a user who has left the organization", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup);
    await db.membership.delete({ where: { orgId_userId: { orgId: setup.org.id, userId: setup.user.id } } });
    expect((await refresh(setup, tokens.refresh_token)).body.error).toBe("invalid_grant");
  });
});
