import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { revokeGrantBySystem } from "@/lib/oauth/grants";
import type { AuthenticatedClient } from "@/lib/oauth/token/client-auth";
import { invalidGrant } from "@/lib/oauth/token/errors";
import type { Granted } from "@/lib/oauth/token/granted";
import { requireParam, type OAuthParams } from "@/lib/oauth/token/read-params";
import { REFRESH_TOKEN_TTL_SECONDS, refreshTokenFor, refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { accessScopes, parseRequestedScope } from "@/lib/oauth/token/scope-request";
import type { Scope } from "@/lib/oauth/scopes";

// grant_type=refresh_token (spec 5.5, D23). Every use rotates; the token just replaced (the
// previous one, whose child is the chain's current token) still works for 60 s and then answers
// with the current token (a client retrying a refresh whose response it lost). Any other rotated
// token (the previous one after the grace, or one two or more rotations old at any time) means two
// parties hold the chain, so the whole grant is revoked.
//
// Two statements, no explicit transaction (issue 17: 11 round trips before): one reads the token
// with its grant, membership and child; one rotates, atomically: it marks the token rotated only
// if it still is not (nor revoked), and inserts the child and touches the grant in the same
// statement. Of concurrent refreshes of one token exactly one rotates; the others see the token
// rotated when they read it again and get the grace answer (the same current token): the chain
// never forks. Rotation and revocation only ever move forward (rotatedAt and revokedAt are never
// cleared), so a decision to revoke taken on what was read stays right when it is carried out.

export const REFRESH_GRACE_SECONDS = 60;

interface TokenState {
  id: string;
  grantId: string;
  scopes: string[];
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  grantClientId: string;
  grantRevokedAt: Date | null;
  orgId: string;
  userId: string;
  member: boolean;
  childId: string | null;
  childHash: string | null;
  childExpiresAt: Date | null;
  childRotatedAt: Date | null;
  childRevokedAt: Date | null;
}

/** The presented token, its grant, whether the user is still a member, and its child (if rotated). */
async function readToken(tokenHash: string): Promise<TokenState | undefined> {
  const [row] = await db.$queryRaw<TokenState[]>`
    SELECT t."id", t."grantId", t."scopes", t."expiresAt", t."rotatedAt", t."revokedAt",
      g."clientId" AS "grantClientId", g."revokedAt" AS "grantRevokedAt", g."orgId", g."userId",
      EXISTS (SELECT 1 FROM "Membership" m WHERE m."orgId" = g."orgId" AND m."userId" = g."userId") AS "member",
      c."id" AS "childId", c."tokenHash" AS "childHash", c."expiresAt" AS "childExpiresAt", c."rotatedAt" AS "childRotatedAt", c."revokedAt" AS "childRevokedAt"
    FROM "OAuthRefreshToken" t
    JOIN "OAuthGrant" g ON g."id" = t."grantId"
    LEFT JOIN "OAuthRefreshToken" c ON c."parentId" = t."id"
    WHERE t."tokenHash" = ${tokenHash}`;
  return row;
}

/** `timestamp(3)` columns hold UTC: an ISO string cast to timestamp keeps its UTC wall time. */
const utc = (d: Date) => d.toISOString();

/**
 * Marks the token rotated and stores its child, in one statement; false when another refresh
 * rotated it first (or it or its grant was revoked meanwhile). Returns the child's plaintext.
 */
async function rotate(token: TokenState): Promise<string | null> {
  const now = new Date();
  const id = randomUUID();
  const plaintext = refreshTokenFor(id);
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
  // RFC 6749 6: the new refresh token keeps the scope of the one presented, even when the access
  // token is narrowed.
  const [row] = await db.$queryRaw<{ rotated: number }[]>`
    WITH live_grant AS (
      -- The grant's row first, as revocations take it first (lib/oauth/grants.ts): no deadlock.
      SELECT "id" FROM "OAuthGrant" WHERE "id" = ${token.grantId}::uuid AND "revokedAt" IS NULL FOR UPDATE
    ), rotated AS (
      UPDATE "OAuthRefreshToken" SET "rotatedAt" = ${utc(now)}::timestamp
      WHERE "id" = ${token.id}::uuid AND "rotatedAt" IS NULL AND "revokedAt" IS NULL AND EXISTS (SELECT 1 FROM live_grant)
      RETURNING "id", "grantId"
    ), child AS (
      INSERT INTO "OAuthRefreshToken" ("id", "grantId", "parentId", "tokenHash", "scopes", "expiresAt", "createdAt")
      SELECT ${id}::uuid, "grantId", "id", ${refreshTokenHash(plaintext)}, ${token.scopes}::text[], ${utc(expiresAt)}::timestamp, ${utc(now)}::timestamp
      FROM rotated
      RETURNING "id"
    ), used AS (
      UPDATE "OAuthGrant" SET "lastUsedAt" = ${utc(now)}::timestamp WHERE "id" IN (SELECT "grantId" FROM rotated)
    )
    SELECT count(*)::int AS "rotated" FROM child`;
  return row?.rotated === 1 ? plaintext : null;
}

/** Within the grace: the chain's current token (the presented token's child) again, recomputed from its id (see refresh-token-value.ts). */
function current(token: TokenState): string {
  if (!token.childId || token.childRevokedAt || !token.childExpiresAt || token.childExpiresAt <= new Date()) {
    throw invalidGrant("The refresh token is no longer valid");
  }
  const plaintext = refreshTokenFor(token.childId);
  // Differs only if APP_ENCRYPTION_KEY changed since the child was issued: refuse, revoke nothing.
  if (refreshTokenHash(plaintext) !== token.childHash) throw invalidGrant("The refresh token has been replaced; use the current one");
  return plaintext;
}

async function touchGrant(grantId: string): Promise<void> {
  await db.$executeRaw`UPDATE "OAuthGrant" SET "lastUsedAt" = ${utc(new Date())}::timestamp WHERE "id" = ${grantId}::uuid`;
}

const REUSED = "The refresh token was already used; the authorization is revoked and the user must authorize again";

export async function refreshAccessToken(client: AuthenticatedClient, params: OAuthParams): Promise<Granted> {
  const tokenHash = refreshTokenHash(requireParam(params, "refresh_token"));
  const requested: Scope[] | undefined = parseRequestedScope(params.get("scope"));
  // At most twice: a second read follows only a lost race to rotate, and then the token is rotated.
  for (let attempt = 0; ; attempt++) {
    const token = await readToken(tokenHash);
    if (!token || token.grantClientId !== client.id) throw invalidGrant("The refresh token is invalid");
    if (token.revokedAt || token.grantRevokedAt) throw invalidGrant("The refresh token has been revoked");
    const inGrace = token.rotatedAt !== null && Date.now() - token.rotatedAt.getTime() <= REFRESH_GRACE_SECONDS * 1000;
    // Only the previous token has the grace: its child must be the current token, not rotated itself.
    if (token.rotatedAt !== null && (!inGrace || token.childRotatedAt)) {
      await revokeGrantBySystem(token.grantId, "refresh_token_reuse");
      throw invalidGrant(REUSED);
    }
    if (!token.member) throw invalidGrant("The user is no longer a member of the organization");
    const scopes = accessScopes(token.scopes, requested, client.allowedScopes);
    const granted = { grantId: token.grantId, userId: token.userId, orgId: token.orgId, scopes };
    if (inGrace) {
      const refreshToken = current(token);
      await touchGrant(token.grantId);
      return { ...granted, refreshToken };
    }
    if (token.expiresAt <= new Date()) throw invalidGrant("The refresh token has expired");
    const refreshToken = await rotate(token);
    if (refreshToken) return { ...granted, refreshToken };
    if (attempt > 0) throw invalidGrant("The refresh token is no longer valid");
  }
}
