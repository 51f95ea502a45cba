import { randomUUID } from "node:crypto";
import type { InferResult } from "kysely";
import { sha256Hex } from "@/lib/crypto";
import { revokeGrantBySystem } from "@/lib/oauth/grants";
import type { AuthenticatedClient, ClientCredentials } from "@/lib/oauth/token/client-auth";
import { invalidGrant } from "@/lib/oauth/token/errors";
import type { Granted } from "@/lib/oauth/token/granted";
import { requireParam, type OAuthParams } from "@/lib/oauth/token/read-params";
import { REFRESH_TOKEN_TTL_SECONDS, refreshTokenFor, refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { accessScopes, parseRequestedScope } from "@/lib/oauth/token/scope-request";
import { ALL_SCOPES, isScope, type Scope } from "@/lib/access/scopes";
import { elements, execute, fixedStatement, plusInterval, rows, sql, textArray } from "@/lib/sql";

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

/** The presented token, its grant, whether the user is still a member, and its child (if rotated). */
const tokenStatement = (tokenHash: string) =>
  sql
    .selectFrom("OAuthRefreshToken as t")
    .innerJoin("OAuthGrant as g", "g.id", "t.grantId")
    .leftJoin("OAuthRefreshToken as c", "c.parentId", "t.id")
    .select((eb) => [
      "t.id",
      "t.grantId",
      "t.scopes",
      "t.expiresAt",
      "t.rotatedAt",
      "t.revokedAt",
      "g.clientId as grantClientId",
      "g.revokedAt as grantRevokedAt",
      "g.orgId",
      "g.userId",
      "g.resource",
      eb
        .exists(eb.selectFrom("Membership as m").select(eb.lit(1).as("one")).whereRef("m.orgId", "=", "g.orgId").whereRef("m.userId", "=", "g.userId"))
        .as("member"),
      "c.id as childId",
      "c.tokenHash as childHash",
      "c.expiresAt as childExpiresAt",
      "c.rotatedAt as childRotatedAt",
      "c.revokedAt as childRevokedAt",
    ])
    .where("t.tokenHash", "=", tokenHash);

type TokenState = InferResult<ReturnType<typeof tokenStatement>>[number];

async function readToken(tokenHash: string): Promise<TokenState | undefined> {
  const [row] = await rows(tokenStatement(tokenHash));
  return row;
}

/**
 * Marks the token rotated and stores its child, in one statement; false when another refresh
 * rotated it first (or it or its grant was revoked meanwhile). Returns the child's plaintext.
 */
async function rotate(token: TokenState): Promise<string | null> {
  const now = new Date();
  const id = randomUUID();
  const plaintext = refreshTokenFor(id);
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
  const statement = sql
    // The grant's row first, as revocations take it first (lib/oauth/grants.ts): no deadlock.
    .with("live_grant", (db) => db.selectFrom("OAuthGrant").select("id").where("id", "=", token.grantId).where("revokedAt", "is", null).forUpdate())
    .with("rotated", (db) =>
      db
        .updateTable("OAuthRefreshToken")
        .set({ rotatedAt: now })
        .where("id", "=", token.id)
        .where("rotatedAt", "is", null)
        .where("revokedAt", "is", null)
        .where((eb) => eb.exists(eb.selectFrom("live_grant").select(eb.lit(1).as("one"))))
        .returning(["id", "grantId"]),
    )
    .with("child", (db) =>
      db
        .insertInto("OAuthRefreshToken")
        .columns(["id", "grantId", "parentId", "tokenHash", "scopes", "expiresAt", "createdAt"])
        .expression(
          db.selectFrom("rotated").select((eb) => [
            eb.cast(eb.val(id), "uuid").as("id"),
            "rotated.grantId",
            "rotated.id as parentId",
            eb.val(refreshTokenHash(plaintext)).as("tokenHash"),
            // RFC 6749 6: the new refresh token keeps the scope of the one presented, even when
            // the access token is narrowed.
            textArray(token.scopes).as("scopes"),
            eb.cast(eb.val(expiresAt), "timestamp").as("expiresAt"),
            eb.cast(eb.val(now), "timestamp").as("createdAt"),
          ]),
        )
        .returning("id"),
    )
    .with("used", (db) => db.updateTable("OAuthGrant").set({ lastUsedAt: now }).where("id", "in", db.selectFrom("rotated").select("rotated.grantId")))
    .selectFrom("child")
    .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("rotated"));
  const [row] = await rows(statement);
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
  await execute(sql.updateTable("OAuthGrant").set({ lastUsedAt: new Date() }).where("id", "=", grantId));
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
  const [row] = await rows(
    oneStatementRefresh({
      clientId: credentials.clientId,
      secretHash: sha256Hex(credentials.clientSecret),
      tokenHash: refreshTokenHash(presented),
      now,
      requested: requested ?? null,
      childId: id,
      childHash: refreshTokenHash(plaintext),
      expiresAt,
    }),
  );
  if (!row) return null;
  const scopes = accessScopes(row.scopes, requested, row.allowedScopes.filter(isScope));
  return {
    clientId: row.clientId,
    granted: { grantId: row.grantId, userId: row.userId, orgId: row.orgId, scopes, refreshToken: plaintext, resource: row.resource },
  };
}

/** The statement of refreshInOneStatement: the same text on every call (a prepared statement), compiled once. */
const oneStatementRefresh = fixedStatement(
  ["clientId", "secretHash", "tokenHash", "now", "requested", "childId", "childHash", "expiresAt"],
  (p: { clientId: string; secretHash: string; tokenHash: string; now: Date; requested: Scope[] | null; childId: string; childHash: string; expiresAt: Date }) =>
    sql
      .with("client", (db) =>
        db.selectFrom("OAuthClient").select(["id", "clientId", "allowedScopes"]).where("clientId", "=", p.clientId).where("secretHash", "=", p.secretHash),
      )
      .with("token", (db) =>
        db
          .selectFrom("OAuthRefreshToken")
          .select(["id", "grantId", "scopes"])
          .where("tokenHash", "=", p.tokenHash)
          .where("rotatedAt", "is", null)
          .where("revokedAt", "is", null)
          .where("expiresAt", ">", p.now),
      )
      // The grant's row first, as revocations take it first (lib/oauth/grants.ts): no deadlock.
      .with("live_grant", (db) =>
        db
          .selectFrom("OAuthGrant as g")
          .innerJoin("token", "token.grantId", "g.id")
          .innerJoin("client", "client.id", "g.clientId")
          .select(["g.id", "g.orgId", "g.userId", "g.resource", "token.id as tokenId", "token.scopes", "client.clientId", "client.allowedScopes"])
          .where("g.revokedAt", "is", null)
          .where((eb) =>
            eb.and([
              eb.exists(eb.selectFrom("Membership as m").select(eb.lit(1).as("one")).whereRef("m.orgId", "=", "g.orgId").whereRef("m.userId", "=", "g.userId")),
              eb.or([eb(textArray(p.requested), "is", null), eb("token.scopes", "@>", textArray(p.requested))]),
              // At least one of the requested (or else held) scopes is a known scope the client may still use.
              eb.exists(
                eb
                  .selectFrom(elements(eb.fn.coalesce(textArray(p.requested), "token.scopes"), "s"))
                  .select(eb.lit(1).as("one"))
                  .where((s) => s("s.s", "=", s.fn.any("client.allowedScopes")))
                  .where((s) => s("s.s", "=", s.fn.any(textArray(ALL_SCOPES)))),
              ),
            ]),
          )
          .forUpdate("g"),
      )
      // The scalar subquery runs first: no token row is locked before the grant's.
      .with("rotated", (db) =>
        db
          .updateTable("OAuthRefreshToken")
          .set({ rotatedAt: p.now })
          .where("id", "=", db.selectFrom("live_grant").select("tokenId"))
          .where("rotatedAt", "is", null)
          .where("revokedAt", "is", null)
          .returning(["id", "grantId", "scopes"]),
      )
      // RFC 6749 6: the new refresh token keeps the scope of the one presented.
      .with("child", (db) =>
        db
          .insertInto("OAuthRefreshToken")
          .columns(["id", "grantId", "parentId", "tokenHash", "scopes", "expiresAt", "createdAt"])
          .expression(
            db
              .selectFrom("rotated")
              .select((eb) => [
                eb.cast(eb.val(p.childId), "uuid").as("id"),
                "rotated.grantId",
                "rotated.id as parentId",
                eb.val(p.childHash).as("tokenHash"),
                "rotated.scopes",
                eb.cast(eb.val(p.expiresAt), "timestamp").as("expiresAt"),
                eb.cast(eb.val(p.now), "timestamp").as("createdAt"),
              ]),
          )
          .returning("grantId"),
      )
      // "Last used" (Settings → Authorized apps) to the minute: a chain refreshed many times a
      // minute writes the grant's row once a minute, not once a grant (one row version and its WAL
      // fewer per grant; the row lock above is what serialises, not this).
      .with("used", (db) =>
        db
          .updateTable("OAuthGrant")
          .set({ lastUsedAt: p.now })
          .where("id", "in", db.selectFrom("child").select("child.grantId"))
          .where((eb) => eb.or([eb("lastUsedAt", "is", null), eb("lastUsedAt", "<", plusInterval(eb.cast(eb.val(p.now), "timestamp"), -60, "second"))])),
      )
      .selectFrom("live_grant as l")
      .innerJoin("child", "child.grantId", "l.id")
      .select(["l.id as grantId", "l.orgId", "l.userId", "l.resource", "l.clientId", "l.allowedScopes", "l.scopes"]),
  // Key lookups and inserts: no plan of it depends on a table's size.
  { prepared: true },
);
