import { db, type Tx } from "@/lib/db";
import { revokeGrantInTx } from "@/lib/oauth/grants";
import type { AuthenticatedClient } from "@/lib/oauth/token/client-auth";
import { invalidGrant } from "@/lib/oauth/token/errors";
import { requireMembership, type Granted } from "@/lib/oauth/token/granted";
import { requireParam, type OAuthParams } from "@/lib/oauth/token/read-params";
import { childOf, lockGrant } from "@/lib/oauth/token/refresh-chain";
import { createRefreshToken, refreshTokenFor, refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { accessScopes, parseRequestedScope } from "@/lib/oauth/token/scope-request";
import type { Scope } from "@/lib/oauth/scopes";

// grant_type=refresh_token (spec 5.5, D23). Every use rotates; the token just replaced (the
// previous one, whose child is the chain's current token) still works for 60 s and then answers
// with the current token (a client retrying a refresh whose response it lost). Any other rotated
// token (the previous one after the grace, or one two or more rotations old at any time) means two
// parties hold the chain, so the whole grant is revoked.

export const REFRESH_GRACE_SECONDS = 60;

type Outcome = { kind: "issued"; granted: Granted } | { kind: "reused" };
type TokenRow = NonNullable<Awaited<ReturnType<typeof loadToken>>>;
type ChildRow = Awaited<ReturnType<typeof childOf>>;

const loadToken = (tx: Tx, tokenHash: string) => tx.oAuthRefreshToken.findUnique({ where: { tokenHash }, include: { grant: true } });

async function rotate(tx: Tx, token: TokenRow): Promise<string> {
  if (token.expiresAt <= new Date()) throw invalidGrant("The refresh token has expired");
  await tx.oAuthRefreshToken.update({ where: { id: token.id }, data: { rotatedAt: new Date() } });
  // RFC 6749 6: the new refresh token keeps the scope of the one presented, even when the access
  // token is narrowed.
  return createRefreshToken(tx, { grantId: token.grantId, scopes: token.scopes, parentId: token.id });
}

/** Within the grace: the chain's current token (the presented token's child) again, recomputed from its id (see refresh-token-value.ts). */
function current(leaf: ChildRow): string {
  if (!leaf || leaf.revokedAt || leaf.expiresAt <= new Date()) throw invalidGrant("The refresh token is no longer valid");
  const plaintext = refreshTokenFor(leaf.id);
  // Differs only if APP_ENCRYPTION_KEY changed since the leaf was issued: refuse, revoke nothing.
  if (refreshTokenHash(plaintext) !== leaf.tokenHash) throw invalidGrant("The refresh token has been replaced; use the current one");
  return plaintext;
}

async function refreshInTx(tx: Tx, client: AuthenticatedClient, tokenHash: string, requested: Scope[] | undefined): Promise<Outcome> {
  const token = await loadToken(tx, tokenHash);
  if (!token || token.grant.clientId !== client.id) throw invalidGrant("The refresh token is invalid");
  if (token.revokedAt || token.grant.revokedAt) throw invalidGrant("The refresh token has been revoked");
  const inGrace = token.rotatedAt !== null && Date.now() - token.rotatedAt.getTime() <= REFRESH_GRACE_SECONDS * 1000;
  // Only the previous token has the grace: its child must be the current token, not rotated itself.
  const child = inGrace ? await childOf(tx, token.id) : null;
  if (token.rotatedAt !== null && (!inGrace || child?.rotatedAt)) {
    await revokeGrantInTx(tx, { grantId: token.grantId, reason: "refresh_token_reuse", actor: { type: "system" } });
    return { kind: "reused" };
  }
  const { grant } = token;
  await requireMembership(tx, grant.orgId, grant.userId);
  const scopes = accessScopes(token.scopes, requested, client.allowedScopes);
  const refreshToken = inGrace ? current(child) : await rotate(tx, token);
  await tx.oAuthGrant.update({ where: { id: grant.id }, data: { lastUsedAt: new Date() } });
  return { kind: "issued", granted: { grantId: grant.id, userId: grant.userId, orgId: grant.orgId, scopes, refreshToken } };
}

export async function refreshAccessToken(client: AuthenticatedClient, params: OAuthParams): Promise<Granted> {
  const tokenHash = refreshTokenHash(requireParam(params, "refresh_token"));
  const requested = parseRequestedScope(params.get("scope"));
  const found = await db.oAuthRefreshToken.findUnique({ where: { tokenHash }, select: { grantId: true } });
  if (!found) throw invalidGrant("The refresh token is invalid");
  const outcome = await db.$transaction(async (tx) => {
    await lockGrant(tx, found.grantId);
    return refreshInTx(tx, client, tokenHash, requested);
  });
  if (outcome.kind === "reused") {
    throw invalidGrant("The refresh token was already used; the authorization is revoked and the user must authorize again");
  }
  return outcome.granted;
}
