import { recordAudit } from "@/lib/audit/record-audit";
import type { Actor } from "@/lib/access/viewer";
import { db, type Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { formatScopes } from "@/lib/access/scopes";

// A grant is one user's authorization of one client in one organization: the root of a refresh
// token chain and the `grant_id` of its access tokens. Revoking it stops both at once, because
// verifyAccessToken refuses tokens of a revoked grant.

export type GrantRevokeReason = "user_revoked" | "client_revoked" | "authorization_code_replay" | "refresh_token_reuse" | "member_removed";

/**
 * Revokes a grant and every refresh token of its chain, in the caller's transaction. The grant row
 * is updated first: refreshes lock it first too, so the two never deadlock. Returns false when it
 * was already revoked (or does not exist).
 */
export async function revokeGrantInTx(tx: Tx, input: { grantId: string; reason: GrantRevokeReason; actor: Actor }): Promise<boolean> {
  const now = new Date();
  const { count } = await tx.oAuthGrant.updateMany({ where: { id: input.grantId, revokedAt: null }, data: { revokedAt: now, revokedReason: input.reason } });
  await tx.oAuthRefreshToken.updateMany({ where: { grantId: input.grantId, revokedAt: null }, data: { revokedAt: now } });
  if (count === 0) return false;
  const grant = await tx.oAuthGrant.findUniqueOrThrow({ where: { id: input.grantId }, select: { orgId: true, clientId: true } });
  await recordAudit(tx, {
    orgId: grant.orgId,
    actor: input.actor,
    action: "oauth_grant.revoked",
    targetType: "oauth_grant",
    targetId: input.grantId,
    metadata: { reason: input.reason, oauthClientId: grant.clientId },
  });
  return true;
}

/** The same in its own transaction, for the token endpoint's security revocations. */
export async function revokeGrantBySystem(grantId: string, reason: GrantRevokeReason): Promise<boolean> {
  return db.$transaction((tx) => revokeGrantInTx(tx, { grantId, reason, actor: { type: "system" } }));
}

/**
 * The user's connected apps: grants not revoked whose chain still has a usable refresh token
 * (an expired chain can mint nothing, so it is no longer "connected").
 */
export async function listUserGrants({ userId }: { userId: string }) {
  const grants = await db.oAuthGrant.findMany({
    where: { userId, revokedAt: null, refreshTokens: { some: { revokedAt: null, rotatedAt: null, expiresAt: { gt: new Date() } } } },
    select: { id: true, scopes: true, createdAt: true, lastUsedAt: true, client: { select: { name: true } }, org: { select: { id: true, name: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return grants.map((g) => ({
    id: g.id,
    clientName: g.client.name,
    orgId: g.org.id,
    orgName: g.org.name,
    scopes: formatScopes(g.scopes).split(" ").filter(Boolean),
    createdAt: g.createdAt,
    lastUsedAt: g.lastUsedAt,
  }));
}

/** The user revokes one of their own grants; another user's (or no) grant is not_found. */
export async function revokeGrant({ userId, grantId, reason = "user_revoked" }: { userId: string; grantId: string; reason?: GrantRevokeReason }) {
  if (!isUuid(grantId)) throw notFound("Connected app");
  await db.$transaction(async (tx) => {
    const grant = await tx.oAuthGrant.findFirst({ where: { id: grantId, userId }, select: { id: true } });
    if (!grant) throw notFound("Connected app");
    await revokeGrantInTx(tx, { grantId, reason, actor: { type: "user", userId } });
  });
}
