import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { verifyAccessToken } from "@/lib/oauth/access-token";
import { listUserGrants, revokeGrant } from "@/lib/oauth/grants";
import { refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { createOAuthSetup, obtainTokens } from "@/test/oauth/token-helpers";

// The "Connected apps" side: a user's grants, and revoking one of them.

describe("user grants", () => {
  it("lists the user's live grants with client, organization and scopes", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup, ["task:read", "portal:read"]);
    const grants = await listUserGrants({ userId: setup.user.id });
    expect(grants).toEqual([
      {
        id: expect.any(String),
        clientName: setup.client.name,
        orgId: setup.org.id,
        orgName: setup.org.name,
        scopes: ["portal:read", "task:read"],
        createdAt: expect.any(Date),
        lastUsedAt: expect.any(Date),
      },
    ]);
    expect(grants[0]?.id).toBe((await verifyAccessToken(tokens.access_token)).grantId);
  });

  it("leaves out revoked grants and grants whose refresh token has expired", async () => {
    const setup = await createOAuthSetup();
    const revoked = await obtainTokens(setup);
    const expired = await obtainTokens(setup);
    await obtainTokens(setup);
    await revokeGrant({ userId: setup.user.id, grantId: (await verifyAccessToken(revoked.access_token)).grantId });
    await db.oAuthRefreshToken.update({ where: { tokenHash: refreshTokenHash(expired.refresh_token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await listUserGrants({ userId: setup.user.id })).toHaveLength(1);
  });

  it("revokes the user's own grant: access tokens refused, refresh tokens revoked, audit row written", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup);
    const { grantId } = await verifyAccessToken(tokens.access_token);
    await revokeGrant({ userId: setup.user.id, grantId });

    await expect(verifyAccessToken(tokens.access_token)).rejects.toMatchObject({ code: "invalid_token" });
    expect(await db.oAuthRefreshToken.count({ where: { grantId, revokedAt: null } })).toBe(0);
    expect(await db.oAuthGrant.findUniqueOrThrow({ where: { id: grantId } })).toMatchObject({ revokedReason: "user_revoked" });
    const audit = await db.auditLog.findFirst({ where: { orgId: setup.org.id, action: "oauth_grant.revoked", targetId: grantId } });
    expect(audit).toMatchObject({ actorUserId: setup.user.id });
  });

  it("gives not_found for another user's grant and for a malformed id, and revokes nothing", async () => {
    const setup = await createOAuthSetup();
    const other = await createOAuthSetup();
    const tokens = await obtainTokens(other);
    const { grantId } = await verifyAccessToken(tokens.access_token);
    await expect(revokeGrant({ userId: setup.user.id, grantId })).rejects.toMatchObject({ code: "not_found" });
    await expect(revokeGrant({ userId: setup.user.id, grantId: "not-a-uuid" })).rejects.toMatchObject({ code: "not_found" });
    await expect(verifyAccessToken(tokens.access_token)).resolves.toBeDefined();
  });
});
