import type { Actor } from "@/lib/access/viewer";
import { insufficientScope } from "@/lib/access/policy";
import { effectiveScopes, grantRevoked, verifyAccessTokenClaims, type VerifiedAccessToken } from "@/lib/oauth/access-token";
import { apiAccessDisabled } from "@/lib/oauth/clients/api-access";
import type { Scope } from "@/lib/access/scopes";
import { readBearerToken } from "./bearer";
import { admitRequest, type RateLimitState } from "./rate-limit";

/** Who is calling, as handlers see it: the verified token, and the actor for domain functions. */
export type ApiAuth = Omit<VerifiedAccessToken, "jti" | "expiresAt"> & {
  /** For domain functions and audit rows: the user, through this OAuth client. */
  actor: Extract<Actor, { type: "user" }>;
};

/** The request's client, admitted: who is calling, the organization gate, and the day's count. */
export interface Admitted {
  auth: ApiAuth;
  /** D8: whether the organization may use the API (checked after the rate limit: see route.ts). */
  apiAccess: boolean;
  rate: RateLimitState;
}

/**
 * 401 invalid_token unless the request carries a valid access token of a live grant; the request
 * is then counted (D7). One statement for the grant, the organization gate (D8, checked on every
 * request: an organization can lose API access while its tokens are still unexpired) and the
 * counter: lib/api/rate-limit.ts. The request's scopes are the token's claim limited by what that
 * statement read: the grant's scopes and the client's allowed scopes now. `audience`: the
 * resource admitting (the REST API by default; the MCP server passes its own), so a token is
 * accepted only where it was issued for.
 */
export async function admit(req: Request, audience?: string): Promise<Admitted> {
  const verified = await verifyAccessTokenClaims(readBearerToken(req), audience);
  const admission = await admitRequest(verified);
  if (!admission) throw grantRevoked();
  const { jti: _jti, expiresAt: _expiresAt, ...claims } = verified;
  const auth: ApiAuth = {
    ...claims,
    scopes: effectiveScopes(claims.scopes, admission.scopes),
    clientRecordId: admission.clientId,
    role: admission.role,
    actor: { type: "user", userId: claims.userId, oauthClientId: admission.clientId },
  };
  return { auth, apiAccess: admission.apiAccess, rate: admission.rate };
}

/** 403 api_access_disabled when the organization may not use the API (D8). */
export function requireOrgApiAccess(admitted: Admitted): void {
  if (!admitted.apiAccess) throw apiAccessDisabled();
}

/** 403 insufficient_scope with the RFC 6750 challenge naming the scope needed (D3). */
export function requireScope(auth: ApiAuth, scope: Scope | null): void {
  if (scope === null || auth.scopes.includes(scope)) return;
  throw insufficientScope(scope);
}
