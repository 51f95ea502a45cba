import type { Actor } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { insufficientScope } from "@/lib/access/policy";
import { verifyAccessToken, type VerifiedAccessToken } from "@/lib/oauth/access-token";
import { requireApiAccess } from "@/lib/oauth/clients/api-access";
import type { Scope } from "@/lib/oauth/scopes";
import { readBearerToken } from "./bearer";

/** Who is calling, as handlers see it: the verified token, and the actor for domain functions. */
export type ApiAuth = Omit<VerifiedAccessToken, "jti" | "expiresAt"> & {
  /** For domain functions and audit rows: the user, through this OAuth client. */
  actor: Extract<Actor, { type: "user" }>;
};

/** 401 invalid_token unless the request carries a valid, unrevoked access token. */
export async function authenticate(req: Request): Promise<ApiAuth> {
  const { jti: _jti, expiresAt: _expiresAt, ...token } = await verifyAccessToken(readBearerToken(req));
  return { ...token, actor: { type: "user", userId: token.userId, oauthClientId: token.clientRecordId } };
}

/**
 * The organization gate (D8), checked on every request: an organization can lose API access
 * (plan change, API switched off) while its tokens are still unexpired.
 */
export async function requireOrgApiAccess(auth: ApiAuth): Promise<void> {
  await requireApiAccess(db, auth.orgId);
}

/** 403 insufficient_scope with the RFC 6750 challenge naming the scope needed (D3). */
export function requireScope(auth: ApiAuth, scope: Scope | null): void {
  if (scope === null || auth.scopes.includes(scope)) return;
  throw insufficientScope(scope);
}
