import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { ALL_SCOPES, type Scope } from "@/lib/oauth/scopes";
import type { Me } from "./schemas";

export interface GetMeInput {
  orgId: string;
  userId: string;
  /** The public client_id. */
  clientId: string;
  /** The scopes the token carries (what the user granted, not what the client asked for). */
  scopes: readonly Scope[];
}

/** The user, organization and client behind an access token. */
export async function getMe({ orgId, userId, clientId, scopes }: GetMeInput): Promise<Me> {
  const [user, org] = await Promise.all([
    db.user.findUnique({ where: { id: userId }, select: { id: true, name: true, email: true } }),
    db.organization.findUnique({ where: { id: orgId }, select: { id: true, name: true } }),
  ]);
  if (!user || !org) throw notFound("User or organization");
  return {
    user_id: user.id,
    user_name: user.name,
    user_email: user.email,
    org_id: org.id,
    org_name: org.name,
    client_id: clientId,
    // In the canonical order of the scope list, each once.
    scopes: ALL_SCOPES.filter((s) => scopes.includes(s)),
  };
}
