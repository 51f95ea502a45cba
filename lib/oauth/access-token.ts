import { randomUUID, sign, verify, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";
import type { InferResult } from "kysely";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { MemberRole } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { apiResource, audienceOf } from "@/lib/oauth/resource";
import { findPublicKey, getActiveSigningKey } from "@/lib/oauth/signing-keys";
import { isScope, type Scope } from "@/lib/access/scopes";
import { intersection, rows, sql } from "@/lib/sql";

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
  /** RFC 8707: the resource the token is for (its `aud`); the REST API when absent. */
  resource?: string | null;
}

export function tokenIssuer(): string {
  return env().API_URL;
}

/** The REST API's audience, that of every token issued without a resource indicator. */
export function tokenAudience(): string {
  return apiResource();
}

const base64urlJson = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The encoded protected header of the active key, computed once per kid. */
let encodedHeader: { kid: string; value: string } | undefined;

export async function issueAccessToken(subject: AccessTokenSubject): Promise<{ token: string; expiresIn: number }> {
  const key = await getActiveSigningKey();
  const iat = Math.floor(Date.now() / 1000);
  // The claims, in the order jose's SignJWT wrote them: the token is the same as it made.
  const payload = {
    client_id: subject.clientId,
    org_id: subject.orgId,
    scope: subject.scopes.join(" "),
    grant_id: subject.grantId,
    iss: tokenIssuer(),
    sub: subject.userId,
    aud: audienceOf(subject.resource),
    iat,
    exp: iat + ACCESS_TOKEN_TTL_SECONDS,
    jti: randomUUID(),
  };
  if (key.alg !== "ES256") {
    // Not issued today (signing-keys.ts makes ES256 keys only); jose handles any other algorithm.
    const token = await new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: TYP }).sign(key.privateKey);
    return { token, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
  }
  // ES256 (RFC 7518 3.4) with node:crypto directly: one synchronous ECDSA signature with the
  // KeyObject parsed once per process, where jose's SignJWT goes through WebCrypto (async, with
  // a key and buffer conversions per call): about 0.09 ms against 0.26 ms per token.
  // dsaEncoding "ieee-p1363" gives the JWS form of the signature (r || s, 64 bytes), not DER.
  if (encodedHeader?.kid !== key.kid) encodedHeader = { kid: key.kid, value: base64urlJson({ alg: key.alg, kid: key.kid, typ: TYP }) };
  const signingInput = `${encodedHeader.value}.${base64urlJson(payload)}`;
  const signature = sign("sha256", Buffer.from(signingInput), { key: key.privateKey, dsaEncoding: "ieee-p1363" });
  return { token: `${signingInput}.${signature.toString("base64url")}`, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
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

type JsonObject = Record<string, unknown>;

const isJsonObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** A base64url JSON segment of a JWS, or undefined when it is not a JSON object. */
function jsonSegment(segment: string | undefined): JsonObject | undefined {
  if (segment === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 7515 4.1.9 `typ`, compared as jose compares it: case-insensitive, `application/` implied. */
const normalizeTyp = (value: string) => (value.includes("/") ? value.toLowerCase() : `application/${value.toLowerCase()}`);
const EXPECTED_TYP = normalizeTyp(TYP);

/**
 * The payload of a compact JWS signed with `key`, after the checks jose's jwtVerify made here, in
 * its order: the signature (ES256 only, the key's algorithm; any `crit` refused: we never set
 * one), the payload a JSON object, then `typ`, `iss`, `aud`, `iat` and `nbf` well-formed, and
 * `exp` not past. "expired" only when everything else held. With node:crypto directly and the
 * KeyObject imported once: jose went through WebCrypto (async, per-call conversions), about
 * twice the CPU per API request.
 */
function verifiedPayload(token: string, header: JsonObject, key: KeyObject, audience: string): { payload: JsonObject } | "invalid" | "expired" {
  const parts = token.split(".");
  if (parts.length !== 3 || header["alg"] !== "ES256" || header["crit"] !== undefined) return "invalid";
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  let valid: boolean;
  try {
    const signature = Buffer.from(encodedSignature, "base64url");
    // "ieee-p1363": the JWS form of an ECDSA signature (r || s), not DER.
    valid = verify("sha256", Buffer.from(`${encodedHeader}.${encodedPayload}`), { key, dsaEncoding: "ieee-p1363" }, signature);
  } catch {
    valid = false;
  }
  if (!valid) return "invalid";
  const payload = jsonSegment(encodedPayload);
  if (!payload) return "invalid";
  if (typeof header["typ"] !== "string" || normalizeTyp(header["typ"]) !== EXPECTED_TYP) return "invalid";
  if (payload["iss"] !== tokenIssuer()) return "invalid";
  const aud = payload["aud"];
  if (!(aud === audience || (Array.isArray(aud) && aud.includes(audience)))) return "invalid";
  const now = Math.floor(Date.now() / 1000);
  const { iat, nbf, exp } = payload;
  if (iat !== undefined && typeof iat !== "number") return "invalid";
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now)) return "invalid";
  if (exp !== undefined && typeof exp !== "number") return "invalid";
  if (typeof exp === "number" && exp <= now) return "expired";
  return { payload };
}

/**
 * Signature, type, issuer, audience, expiry and claims; no database query (the keys are cached).
 * `audience`: the resource asking (lib/oauth/resource.ts); a token for another one is invalid.
 */
export async function verifyAccessTokenClaims(token: string, audience: string = tokenAudience()): Promise<AccessTokenClaims> {
  // As jose's decodeProtectedHeader read it: a JWS (3 parts) or JWE (5 parts) header, else malformed.
  const parts = token.split(".");
  const header = parts.length === 3 || parts.length === 5 ? jsonSegment(parts[0] || undefined) : undefined;
  if (!header) throw invalidToken("The access token is malformed");
  const kid = header["kid"];
  const key = typeof kid === "string" && kid !== "" ? await findPublicKey(kid) : null;
  if (!key) throw invalidToken("The access token is not signed by a known key");

  const verified = verifiedPayload(token, header, key, audience);
  if (verified === "expired") throw invalidToken("The access token has expired");
  if (verified === "invalid") throw invalidToken("The access token is invalid");
  const { payload } = verified;
  const { sub, jti, exp, grant_id, org_id, client_id, scope } = payload;
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

/** The row liveGrantQuery selects: the grant's client (OAuthClient.id), the user's role, D8's gate, the scopes still allowed. */
export type LiveGrant = InferResult<ReturnType<typeof liveGrantStatement>>[number];

/**
 * What a request may do: the token's scope claim, limited to the grant's scopes and to the
 * scopes the client is allowed now (narrowing a client takes effect on its live tokens at once).
 */
export function effectiveScopes(claimed: readonly Scope[], live: readonly string[]): Scope[] {
  return claimed.filter((scope) => live.includes(scope));
}

/**
 * The claims' grant if it is live: not revoked, of this client, and its user still a member of
 * the organization (a user taken out of it loses API access at once, not when the token expires),
 * with the user's role (the access policy needs it), the organization gate (D8) and the grant's
 * scopes that the client is still allowed. Null when the claims' ids are not UUIDs (no such grant
 * can exist).
 */
function liveGrantQuery(claims: GrantClaims) {
  return grantIdsValid(claims) ? liveGrantStatement(claims) : null;
}

type GrantClaims = Pick<AccessTokenClaims, "grantId" | "orgId" | "userId" | "clientId">;

/** Whether the claims' ids are UUIDs, as every grant's are (otherwise no grant is looked up). */
export const grantIdsValid = ({ grantId, orgId, userId }: GrantClaims) => [grantId, orgId, userId].every(isUuid);

/** liveGrantQuery's statement, for ids already checked (grantIdsValid); the admission's statement builds on it. */
export function liveGrantStatement({ grantId, orgId, userId, clientId }: GrantClaims) {
  return sql
    .selectFrom("OAuthGrant as g")
    .innerJoin("OAuthClient as c", "c.id", "g.clientId")
    .innerJoin("Membership as m", (join) => join.onRef("m.orgId", "=", "g.orgId").onRef("m.userId", "=", "g.userId"))
    .innerJoin("Organization as o", "o.id", "g.orgId")
    .select((eb) => [
      "g.clientId",
      eb.cast<MemberRole>("m.role", "text").as("role"),
      // D8: whether the organization may use the API now (enterprise plan, API enabled).
      eb
        .and([eb("o.plan", "=", "enterprise"), eb.ref("o.apiEnabled")])
        .$castTo<boolean>()
        .as("apiAccess"),
      // The grant's scopes that the client is still allowed now (effectiveScopes adds the token's claim).
      intersection(eb.ref("g.scopes"), eb.ref("c.allowedScopes")).as("scopes"),
    ])
    .where("g.id", "=", grantId)
    .where("g.orgId", "=", orgId)
    .where("g.userId", "=", userId)
    .where("g.revokedAt", "is", null)
    .where("c.clientId", "=", clientId);
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
  const [grant] = query ? await rows(query) : [];
  if (!grant) throw grantRevoked();
  return { ...claims, scopes: effectiveScopes(claims.scopes, grant.scopes), clientRecordId: grant.clientId, role: grant.role };
}
