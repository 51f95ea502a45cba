import { randomUUID } from "node:crypto";
import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { MemberRole } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { findPublicKey, getActiveSigningKey } from "@/lib/oauth/signing-keys";
import { isScope, type Scope } from "@/lib/oauth/scopes";

// Access tokens: JWTs (`typ: at+jwt`, RFC 9068) signed with the active key, 1 hour (D23).

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const TYP = "at+jwt";

export interface AccessTokenSubject {
  grantId: string;
  userId: string;
  orgId: string;
  /** The public client_id. */
  clientId: string;
  scopes: readonly Scope[];
}

export function tokenIssuer(): string {
  return env().API_URL;
}

export function tokenAudience(): string {
  return `${env().API_URL}/api/v1`;
}

export async function issueAccessToken(subject: AccessTokenSubject): Promise<{ token: string; expiresIn: number }> {
  const key = await getActiveSigningKey();
  const token = await new SignJWT({
    client_id: subject.clientId,
    org_id: subject.orgId,
    scope: subject.scopes.join(" "),
    grant_id: subject.grantId,
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: TYP })
    .setIssuer(tokenIssuer())
    .setSubject(subject.userId)
    .setAudience(tokenAudience())
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { token, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
}

export interface VerifiedAccessToken {
  userId: string;
  orgId: string;
  /** The public client_id. */
  clientId: string;
  /** OAuthClient.id, for rate limits, idempotency and audit rows. */
  clientRecordId: string;
  grantId: string;
  scopes: Scope[];
  /** The user's role in the organization, loaded with the grant (the access policy needs it). */
  role: MemberRole;
  jti: string;
  expiresAt: Date;
}

const invalidToken = (description: string) =>
  new AppError("invalid_token", description, { "WWW-Authenticate": `Bearer error="invalid_token", error_description="${description}"` });

/**
 * Verifies signature, type, issuer, audience and expiry, then that the grant is not revoked and
 * its client still exists. Any failure is 401 invalid_token.
 */
export async function verifyAccessToken(token: string): Promise<VerifiedAccessToken> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw invalidToken("The access token is malformed");
  }
  const key = kid ? await findPublicKey(kid) : null;
  if (!key) throw invalidToken("The access token is not signed by a known key");

  let payload;
  try {
    ({ payload } = await jwtVerify(token, key, { issuer: tokenIssuer(), audience: tokenAudience(), typ: TYP }));
  } catch (e) {
    const expired = e instanceof Error && "code" in e && e.code === "ERR_JWT_EXPIRED";
    throw invalidToken(expired ? "The access token has expired" : "The access token is invalid");
  }
  const { sub, jti, exp, grant_id, org_id, client_id, scope } = payload as Record<string, unknown>;
  if (
    typeof sub !== "string" ||
    typeof grant_id !== "string" ||
    typeof org_id !== "string" ||
    typeof client_id !== "string" ||
    typeof scope !== "string" ||
    typeof jti !== "string" ||
    typeof exp !== "number"
  ) {
    throw invalidToken("The access token is missing claims");
  }
  // One query on every API request: the grant (not revoked, of this client) and the user's role,
  // which the access policy needs. A user taken out of the organization has no membership row and
  // loses API access at once, not when the token expires.
  const [grant] = [sub, grant_id, org_id].every(isUuid)
    ? await db.$queryRaw<{ clientId: string; role: MemberRole }[]>`
        SELECT g."clientId", m."role"::text AS "role"
        FROM "OAuthGrant" g
        JOIN "OAuthClient" c ON c."id" = g."clientId"
        JOIN "Membership" m ON m."orgId" = g."orgId" AND m."userId" = g."userId"
        WHERE g."id" = ${grant_id}::uuid AND g."orgId" = ${org_id}::uuid AND g."userId" = ${sub}::uuid
          AND g."revokedAt" IS NULL AND c."clientId" = ${client_id}`
    : [];
  if (!grant) throw invalidToken("The access token has been revoked");
  return {
    userId: sub,
    orgId: org_id,
    clientId: client_id,
    clientRecordId: grant.clientId,
    grantId: grant_id,
    scopes: scope.split(" ").filter(isScope),
    role: grant.role,
    jti,
    expiresAt: new Date(exp * 1000),
  };
}
