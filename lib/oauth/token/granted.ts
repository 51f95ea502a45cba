import type { Tx } from "@/lib/db";
import { invalidGrant } from "@/lib/oauth/token/errors";
import type { Scope } from "@/lib/access/scopes";

/** What a successful grant hands to the response: the access token's subject and the refresh token. */
export interface Granted {
  grantId: string;
  userId: string;
  orgId: string;
  /** Scopes of the access token (a refresh may narrow them). */
  scopes: Scope[];
  refreshToken: string;
  /** RFC 8707: the grant's resource, the access token's audience (null or absent: the REST API). */
  resource?: string | null;
}

/** Tokens act in the organization, so a user who has left it gets none (checked at each grant). */
export async function requireMembership(tx: Tx, orgId: string, userId: string): Promise<void> {
  const membership = await tx.membership.findUnique({ where: { orgId_userId: { orgId, userId } }, select: { id: true } });
  if (!membership) throw invalidGrant("The user is no longer a member of the organization");
}
