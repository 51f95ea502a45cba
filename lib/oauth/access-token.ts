import { randomUUID } from "node:crypto";
import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { Prisma, type MemberRole } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { apiAccessSql } from "@/lib/oauth/clients/api-access";
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

/** What a well-signed, unexpired access token says, before the database is asked about its grant. */
export type AccessTokenClaims = Omit<VerifiedAccessToken, "clientRecordId" | "role">;

/** Signature, type, issuer, audience, expiry and claims; no database query (the keys are cached). */
export async function verifyAccessTokenClaims(token: string): Promise<AccessTokenClaims> {
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
  return { userId: sub, orgId: org_id, clientId: client_id, grantId: grant_id, scopes: scope.split(" ").filter(isScope), jti, expiresAt: new Date(exp * 1000) };
}

/** The row liveGrantQuery selects. */
export interface LiveGrant {
  /** OAuthClient.id */
  clientId: string;
  role: MemberRole;
  /** D8: whether the organization may use the API now (enterprise plan, API enabled). */
  apiAccess: boolean;
}

/**
 * The claims' grant if it is live: not revoked, of this client, and its user still a member of
 * the organization (a user taken out of it loses API access at once, not when the token expires),
 * with the user's role (the access policy needs it) and the organization gate (D8). Null when the
 * claims' ids are not UUIDs (no such grant can exist).
 */
export function liveGrantQuery(claims: Pick<AccessTokenClaims, "grantId" | "orgId" | "userId" | "clientId">): Prisma.Sql | null {
  const { grantId, orgId, userId, clientId } = claims;
  if (![grantId, orgId, userId].every(isUuid)) return null;
  return Prisma.sql`
    SELECT g."clientId", m."role"::text AS "role", ${apiAccessSql} AS "apiAccess"
    FROM "OAuthGrant" g
    JOIN "OAuthClient" c ON c."id" = g."clientId"
    JOIN "Membership" m ON m."orgId" = g."orgId" AND m."userId" = g."userId"
    JOIN "Organization" o ON o."id" = g."orgId"
    WHERE g."id" = ${grantId}::uuid AND g."orgId" = ${orgId}::uuid AND g."userId" = ${userId}::uuid
      AND g."revokedAt" IS NULL AND c."clientId" = ${clientId}`;
}

export const grantRevoked = () => invalidToken("The access token has been revoked");

/**
 * Verifies signature, type, issuer, audience and expiry, then that the grant is not revoked and
 * its client still exists (one query). Any failure is 401 invalid_token. The API itself checks
 * the grant in the statement that also counts the request (lib/api/rate-limit.ts).
 */
export async function verifyAccessToken(token: string): Promise<VerifiedAccessToken> {
  const claims = await verifyAccessTokenClaims(token);
  const query = liveGrantQuery(claims);
  const [grant] = query ? await db.$queryRaw<LiveGrant[]>(query) : [];
  if (!grant) throw grantRevoked();
  return { ...claims, clientRecordId: grant.clientId, role: grant.role };
}
