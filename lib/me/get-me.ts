import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { forbidden, notFound } from "@/lib/errors";
import { ALL_SCOPES } from "@/lib/access/scopes";
import type { Me } from "./schemas";

/**
 * The user, organization and client behind an access token: any API viewer may ask (no scope);
 * the scopes are those the token carries (what the user granted, not what the client asked for).
 */
export async function getMe({ viewer }: { viewer: Viewer }): Promise<Me> {
  if (viewer.kind !== "user" || !viewer.client) throw forbidden("Only an OAuth client acting for a user has a /me");
  const { orgId, userId } = viewer;
  const { clientId, scopes } = viewer.client;
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
