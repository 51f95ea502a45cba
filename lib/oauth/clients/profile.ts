import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { clientProfileSchema, type ClientProfile, type ClientProfileInput } from "@/lib/oauth/clients/profile-schema";
import { parseInput } from "@/lib/parse-input";

// Who makes an app, for the person deciding on the consent screen: publisher, website and logo.
// All optional; an empty value clears the field (rules in ./profile-schema.ts).

/** Sets a client's publisher, website and logo. Another organization's client is not found. */
export async function updateClientProfile({ viewer, id, ...input }: { viewer: Viewer; id: string } & ClientProfileInput): Promise<ClientProfile> {
  requireOrg(viewer, "manageOAuthClients");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const profile = parseInput(clientProfileSchema, input);
  if (!isUuid(id)) throw notFound("OAuth client");
  await db.$transaction(async (tx) => {
    const { count } = await tx.oAuthClient.updateMany({ where: { id, orgId }, data: profile });
    if (count === 0) throw notFound("OAuth client");
    await recordAudit(tx, { orgId, actor, action: "oauth_client.updated", targetType: "oauth_client", targetId: id });
  });
  return profile;
}

/** The profile shown on the consent screen (the client was already found by its client_id). */
export async function findClientProfile(id: string): Promise<ClientProfile | null> {
  return db.oAuthClient.findUnique({ where: { id }, select: { publisherName: true, websiteUrl: true, logoUrl: true } });
}
