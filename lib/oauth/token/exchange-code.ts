import { sha256Hex } from "@/lib/crypto";
import { db } from "@/lib/db";
import { revokeGrantBySystem } from "@/lib/oauth/grants";
import { isScope } from "@/lib/access/scopes";
import type { AuthenticatedClient } from "@/lib/oauth/token/client-auth";
import { apiResource, knownResource } from "@/lib/oauth/resource";
import { invalidGrant, invalidScope, OAuthError } from "@/lib/oauth/token/errors";
import { requireMembership, type Granted } from "@/lib/oauth/token/granted";
import { checkPkce } from "@/lib/oauth/token/pkce";
import { requireParam, type OAuthParams } from "@/lib/oauth/token/read-params";
import { createRefreshToken } from "@/lib/oauth/token/refresh-token-value";

// grant_type=authorization_code (RFC 6749 4.1.3, D23): single use, 5 minutes, exact redirect_uri,
// PKCE when a challenge was sent.

/** RFC 6749 4.1.2: a code used twice revokes what its first use issued. */
async function rejectReplay(codeId: string): Promise<never> {
  const code = await db.oAuthAuthorizationCode.findUnique({ where: { id: codeId }, select: { grantId: true } });
  if (code?.grantId) await revokeGrantBySystem(code.grantId, "authorization_code_replay");
  throw invalidGrant("The authorization code has already been used; the tokens issued for it are revoked");
}

export async function exchangeAuthorizationCode(client: AuthenticatedClient, params: OAuthParams): Promise<Granted> {
  const codeValue = requireParam(params, "code");
  const redirectUri = requireParam(params, "redirect_uri");
  const code = await db.oAuthAuthorizationCode.findUnique({ where: { codeHash: sha256Hex(codeValue) } });
  // Another client's code reads as unknown: it says nothing about the code to whoever holds it.
  if (!code || code.clientId !== client.id) throw invalidGrant("The authorization code is invalid");
  if (code.consumedAt) return rejectReplay(code.id);
  if (code.expiresAt <= new Date()) throw invalidGrant("The authorization code has expired");
  if (code.redirectUri !== redirectUri) throw invalidGrant("redirect_uri does not match the one of the authorization request");
  // Checked before the code is consumed, so a failed proof does not burn the real client's code.
  if (client.isPublic && !code.codeChallenge) throw invalidGrant("A public client's code must carry a PKCE challenge");
  checkPkce(code, params.get("code_verifier"));
  // RFC 8707 2.2: a resource on the token request must be the one the code was issued for.
  const resource = params.get("resource");
  if (resource !== undefined && knownResource(resource) !== (code.resource ?? apiResource())) {
    throw new OAuthError("invalid_target", "resource does not match the one of the authorization request");
  }
  // An administrator may have narrowed the client's scopes since the user approved.
  const scopes = code.scopes.filter(isScope).filter((s) => client.allowedScopes.includes(s));
  if (scopes.length === 0) throw invalidScope("The client may no longer use any of the approved scopes");

  const issued = await db.$transaction(async (tx) => {
    // The atomic claim: of two concurrent exchanges only one sees consumedAt still null.
    const { count } = await tx.oAuthAuthorizationCode.updateMany({ where: { id: code.id, consumedAt: null }, data: { consumedAt: new Date() } });
    if (count === 0) return null;
    await requireMembership(tx, code.orgId, code.userId);
    const grant = await tx.oAuthGrant.create({
      data: { orgId: code.orgId, clientId: client.id, userId: code.userId, scopes, resource: code.resource, lastUsedAt: new Date() },
    });
    await tx.oAuthAuthorizationCode.update({ where: { id: code.id }, data: { grantId: grant.id } });
    return { grantId: grant.id, refreshToken: await createRefreshToken(tx, { grantId: grant.id, scopes, parentId: null }) };
  });
  if (!issued) return rejectReplay(code.id);
  return { ...issued, userId: code.userId, orgId: code.orgId, scopes, resource: code.resource };
}
