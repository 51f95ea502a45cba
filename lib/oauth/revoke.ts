import { decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from "jose";
import { db } from "@/lib/db";
import { tokenAudience, tokenIssuer } from "@/lib/oauth/access-token";
import { revokeGrantInTx } from "@/lib/oauth/grants";
import { findPublicKey } from "@/lib/oauth/signing-keys";
import type { AuthenticatedClient } from "@/lib/oauth/token/client-auth";
import { refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";

// Token revocation (RFC 7009) for an authenticated client. Either kind of token revokes the whole
// grant: the refresh chain and every access token of it. A token that is unknown, malformed,
// already revoked or another client's is answered like a revoked one (200, nothing done), so the
// endpoint tells nobody anything about tokens they do not own.

/** The claims of an access token we signed, expired or not (revoking an expired one still ends the grant). */
async function accessTokenClaims(token: string): Promise<JWTPayload | null> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  const key = kid ? await findPublicKey(kid) : null;
  if (!key) return null;
  try {
    return (await jwtVerify(token, key, { issuer: tokenIssuer(), audience: tokenAudience(), typ: "at+jwt" })).payload;
  } catch (e) {
    // Thrown only after the signature checked out, so its claims are ours.
    return e instanceof errors.JWTExpired ? e.payload : null;
  }
}

async function grantIdOf(token: string): Promise<string | null> {
  const refresh = await db.oAuthRefreshToken.findUnique({ where: { tokenHash: refreshTokenHash(token) }, select: { grantId: true } });
  if (refresh) return refresh.grantId;
  if (token.split(".").length !== 3) return null;
  const claims = await accessTokenClaims(token);
  return typeof claims?.grant_id === "string" ? claims.grant_id : null;
}

/** Revokes the grant behind a refresh or access token of this client; anything else is a no-op. */
export async function revokeToken({ client, token }: { client: AuthenticatedClient; token: string }): Promise<void> {
  const grantId = await grantIdOf(token);
  if (!grantId) return;
  await db.$transaction(async (tx) => {
    const grant = await tx.oAuthGrant.findFirst({ where: { id: grantId, clientId: client.id }, select: { userId: true } });
    if (!grant) return;
    await revokeGrantInTx(tx, { grantId, reason: "client_revoked", actor: { type: "user", userId: grant.userId, oauthClientId: client.id } });
  });
}
