import { randomUUID } from "node:crypto";
import { sha256Hex } from "@/lib/crypto";
import { query } from "@/lib/db";
import { revokeGrantBySystem } from "@/lib/oauth/grants";
import type { AuthenticatedClient, ClientCredentials } from "@/lib/oauth/token/client-auth";
import { invalidGrant } from "@/lib/oauth/token/errors";
import type { Granted } from "@/lib/oauth/token/granted";
import { requireParam, type OAuthParams } from "@/lib/oauth/token/read-params";
import { REFRESH_TOKEN_TTL_SECONDS, refreshTokenFor, refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { accessScopes, parseRequestedScope } from "@/lib/oauth/token/scope-request";
import { ALL_SCOPES, isScope, type Scope } from "@/lib/access/scopes";

// grant_type=refresh_token (spec 5.5, D23). Every use rotates; the token just replaced (the
// previous one, whose child is the chain's current token) still works for 60 s and then answers
// with the current token (a client retrying a refresh whose response it lost). Any other rotated
// token (the previous one after the grace, or one two or more rotations old at any time) means two
// parties hold the chain, so the whole grant is revoked.
//
// The usual refresh (a live token of a live grant, presented once) is ONE statement
// (refreshInOneStatement, instead of 11 round trips): it authenticates the client, checks
// the token and its grant, rotates and returns what the access token needs. When it rotates
// nothing, the precise path (refreshAccessToken) decides what to answer from a fresh read: the
// exact error, the grace answer, or revoking a reused chain. That path is two statements, no
// explicit transaction: one reads the token with its grant, membership and child; one rotates,
// atomically: it marks the token rotated only if it still is not (nor revoked), and inserts the
// child and touches the grant in the same statement. Of concurrent refreshes of one token exactly
// one rotates (in either path); the others see the token rotated when they read it again and get
// the grace answer (the same current token): the chain never forks (parentId is unique, too).
// Rotation and revocation only ever move forward (rotatedAt and revokedAt are never cleared), so
// a decision to revoke taken on what was read stays right when it is carried out.

const REFRESH_GRACE_SECONDS = 60;

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
  resource: string | null;
  member: boolean;
  childId: string | null;
  childHash: string | null;
  childExpiresAt: Date | null;
  childRotatedAt: Date | null;
  childRevokedAt: Date | null;
}

/** The presented token, its grant, whether the user is still a member, and its child (if rotated). */
async function readToken(tokenHash: string): Promise<TokenState | undefined> {
  const [row] = await query<TokenState>(
    `SELECT t."id", t."grantId", t."scopes", t."expiresAt", t."rotatedAt", t."revokedAt",
      g."clientId" AS "grantClientId", g."revokedAt" AS "grantRevokedAt", g."orgId", g."userId", g."resource",
      EXISTS (SELECT 1 FROM "Membership" m WHERE m."orgId" = g."orgId" AND m."userId" = g."userId") AS "member",
      c."id" AS "childId", c."tokenHash" AS "childHash", c."expiresAt" AS "childExpiresAt", c."rotatedAt" AS "childRotatedAt", c."revokedAt" AS "childRevokedAt"
    FROM "OAuthRefreshToken" t
    JOIN "OAuthGrant" g ON g."id" = t."grantId"
    LEFT JOIN "OAuthRefreshToken" c ON c."parentId" = t."id"
    WHERE t."tokenHash" = $1`,
    [tokenHash],
  );
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
  const [row] = await query<{ rotated: number }>(
    `WITH live_grant AS (
      -- The grant's row first, as revocations take it first (lib/oauth/grants.ts): no deadlock.
      SELECT "id" FROM "OAuthGrant" WHERE "id" = $1::uuid AND "revokedAt" IS NULL FOR UPDATE
    ), rotated AS (
      UPDATE "OAuthRefreshToken" SET "rotatedAt" = $3::timestamp
      WHERE "id" = $2::uuid AND "rotatedAt" IS NULL AND "revokedAt" IS NULL AND EXISTS (SELECT 1 FROM live_grant)
      RETURNING "id", "grantId"
    ), child AS (
      INSERT INTO "OAuthRefreshToken" ("id", "grantId", "parentId", "tokenHash", "scopes", "expiresAt", "createdAt")
      SELECT $4::uuid, "grantId", "id", $5, $6::text[], $7::timestamp, $3::timestamp
      FROM rotated
      RETURNING "id"
    ), used AS (
      UPDATE "OAuthGrant" SET "lastUsedAt" = $3::timestamp WHERE "id" IN (SELECT "grantId" FROM rotated)
    )
    SELECT count(*)::int AS "rotated" FROM child`,
    [token.grantId, token.id, utc(now), id, refreshTokenHash(plaintext), token.scopes, utc(expiresAt)],
  );
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
  await query(`UPDATE "OAuthGrant" SET "lastUsedAt" = $1::timestamp WHERE "id" = $2::uuid`, [utc(new Date()), grantId]);
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
    const granted = { grantId: token.grantId, userId: token.userId, orgId: token.orgId, scopes, resource: token.resource };
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

/** What the one-statement refresh returns when it rotated the presented token. */
interface RotatedRow {
  grantId: string;
  orgId: string;
  userId: string;
  resource: string | null;
  /** The public client_id. */
  clientId: string;
  allowedScopes: string[];
  /** The presented token's scopes (the child keeps them). */
  scopes: string[];
}

/**
 * The usual refresh in ONE statement: authenticates the client, checks the presented token
 * (unrotated, unrevoked, unexpired), its grant (unrevoked, of this client, its user still a
 * member of the organization) and the requested scope, locks the grant row, rotates the token,
 * inserts its child and touches the grant's lastUsedAt. Returns null when it rotated nothing, for
 * whatever reason: the caller then takes the precise path (authenticateClient, then
 * refreshAccessToken), which reads the state afresh and gives the exact answer (invalid_client,
 * invalid_grant, invalid_scope, the grace answer, or the revocation of a reused chain). That
 * fallback is right under concurrency because this statement changed nothing when it returns
 * null, and rotation and revocation only move forward: what the fallback reads is at least as
 * recent as what this statement saw.
 *
 * Why it is atomic (READ COMMITTED, one statement, one snapshot):
 * - `live_grant` locks the grant row FOR UPDATE before any token row is touched (the token update
 *   needs its row), the order revocations take (lib/oauth/grants.ts: the grant, then its tokens),
 *   so the two never deadlock. If the grant was locked by a revocation or another refresh, the
 *   statement waits, then PostgreSQL re-checks `"revokedAt" IS NULL` on the grant's newest
 *   version: a grant revoked meanwhile yields no row, and nothing is rotated.
 * - `rotated` updates the token only if `"rotatedAt" IS NULL AND "revokedAt" IS NULL` still hold
 *   on its newest version (PostgreSQL re-checks them after waiting for a concurrent writer of the
 *   row): of concurrent refreshes of one token exactly one rotates it; the others rotate nothing,
 *   return null, and the fallback gives them the grace answer (the same current token).
 * - `child` and `used` insert and update only for a row `rotated` returned; data-modifying CTEs
 *   run to completion whether or not the final SELECT reads them, all in the same statement, so
 *   the rotation, the child and lastUsedAt commit together or not at all.
 * - The scope conditions make accessScopes below unable to refuse once the token is rotated: the
 *   requested scopes (if any) are all held, and at least one of them (or of the held ones) is a
 *   known scope the client may still use.
 *
 * The client's secret is compared in SQL against its stored SHA-256: client secrets are
 * high-entropy random values (lib/oauth/clients/credentials.ts), so the comparison's timing says
 * nothing usable about the secret; an unknown client and a wrong secret both fall back to
 * authenticateClient, which answers both in the same time.
 */
export async function refreshInOneStatement(credentials: ClientCredentials, params: OAuthParams): Promise<{ clientId: string; granted: Granted } | null> {
  const presented = params.get("refresh_token");
  if (presented === undefined) return null;
  let requested: Scope[] | undefined;
  try {
    requested = parseRequestedScope(params.get("scope"));
  } catch {
    return null; // The precise path reports it, after client authentication as always.
  }
  const now = new Date();
  const id = randomUUID();
  const plaintext = refreshTokenFor(id);
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
  const [row] = await query<RotatedRow>(
    `WITH client AS (
      SELECT "id", "clientId", "allowedScopes" FROM "OAuthClient" WHERE "clientId" = $1 AND "secretHash" = $2
    ), token AS (
      SELECT "id", "grantId", "scopes" FROM "OAuthRefreshToken"
      WHERE "tokenHash" = $3 AND "rotatedAt" IS NULL AND "revokedAt" IS NULL AND "expiresAt" > $4::timestamp
    ), live_grant AS (
      -- The grant's row first, as revocations take it first (lib/oauth/grants.ts): no deadlock.
      SELECT g."id", g."orgId", g."userId", g."resource", token."id" AS "tokenId", token."scopes", client."clientId", client."allowedScopes"
      FROM "OAuthGrant" g
      JOIN token ON token."grantId" = g."id"
      JOIN client ON client."id" = g."clientId"
      WHERE g."revokedAt" IS NULL
        AND EXISTS (SELECT 1 FROM "Membership" m WHERE m."orgId" = g."orgId" AND m."userId" = g."userId")
        AND ($5::text[] IS NULL OR token."scopes" @> $5::text[])
        AND EXISTS (
          SELECT 1 FROM unnest(coalesce($5::text[], token."scopes")) s
          WHERE s = ANY (client."allowedScopes") AND s = ANY ($6::text[])
        )
      FOR UPDATE OF g
    ), rotated AS (
      -- The scalar subquery runs first: no token row is locked before the grant's.
      UPDATE "OAuthRefreshToken" SET "rotatedAt" = $4::timestamp
      WHERE "id" = (SELECT "tokenId" FROM live_grant) AND "rotatedAt" IS NULL AND "revokedAt" IS NULL
      RETURNING "id", "grantId", "scopes"
    ), child AS (
      -- RFC 6749 6: the new refresh token keeps the scope of the one presented.
      INSERT INTO "OAuthRefreshToken" ("id", "grantId", "parentId", "tokenHash", "scopes", "expiresAt", "createdAt")
      SELECT $7::uuid, "grantId", "id", $8, "scopes", $9::timestamp, $4::timestamp FROM rotated
      RETURNING "grantId"
    ), used AS (
      -- "Last used" (Settings → Authorized apps) to the minute: a chain refreshed many times a
      -- minute writes the grant's row once a minute, not once a grant (one row version and its WAL
      -- fewer per grant; the row lock above is what serialises, not this).
      UPDATE "OAuthGrant" SET "lastUsedAt" = $4::timestamp
      WHERE "id" IN (SELECT "grantId" FROM child) AND ("lastUsedAt" IS NULL OR "lastUsedAt" < $4::timestamp - interval '60 seconds')
    )
    SELECT l."id" AS "grantId", l."orgId", l."userId", l."resource", l."clientId", l."allowedScopes", l."scopes"
    FROM live_grant l JOIN child ON child."grantId" = l."id"`,
    [
      credentials.clientId,
      sha256Hex(credentials.clientSecret),
      refreshTokenHash(presented),
      utc(now),
      requested ?? null,
      ALL_SCOPES,
      id,
      refreshTokenHash(plaintext),
      utc(expiresAt),
    ],
    // Prepared once per connection: PostgreSQL parses and plans this statement once, not per grant.
    { name: "oauth_refresh_in_one_statement" },
  );
  if (!row) return null;
  const scopes = accessScopes(row.scopes, requested, row.allowedScopes.filter(isScope));
  return {
    clientId: row.clientId,
    granted: { grantId: row.grantId, userId: row.userId, orgId: row.orgId, scopes, refreshToken: plaintext, resource: row.resource },
  };
}
