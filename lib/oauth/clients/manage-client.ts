import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { newClientSecret } from "@/lib/oauth/clients/credentials";

/** The organization's clients, without secrets. */
export async function listOAuthClients({ viewer }: { viewer: Viewer }) {
  requireOrg(viewer, "manageOAuthClients");
  return db.oAuthClient.findMany({ where: { orgId: viewer.orgId }, omit: { secretHash: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** A new secret; the old one stops working at once. Returned here once. */
export async function rotateClientSecret({ viewer, id }: { viewer: Viewer; id: string }) {
  requireOrg(viewer, "manageOAuthClients");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  if (!isUuid(id)) throw notFound("OAuth client");
  const { secret, secretHash, secretHint } = newClientSecret();
  await db.$transaction(async (tx) => {
    const { count } = await tx.oAuthClient.updateMany({ where: { id, orgId, isPublic: false }, data: { secretHash, secretHint, secretRotatedAt: new Date() } });
    if (count === 0 && (await tx.oAuthClient.count({ where: { id, orgId, isPublic: true } })) > 0) {
      throw invalidRequest("This client is public (registered by an MCP client): it has no secret to rotate");
    }
    if (count === 0) throw notFound("OAuth client");
    await recordAudit(tx, { orgId, actor, action: "oauth_client.secret_rotated", targetType: "oauth_client", targetId: id });
  });
  return { secret };
}

/** Deletes a client; its codes, grants and refresh tokens go with it, so its tokens stop working. */
export async function deleteOAuthClient({ viewer, id }: { viewer: Viewer; id: string }) {
  requireOrg(viewer, "manageOAuthClients");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  if (!isUuid(id)) throw notFound("OAuth client");
  await db.$transaction(async (tx) => {
    const { count } = await tx.oAuthClient.deleteMany({ where: { id, orgId } });
    if (count === 0) throw notFound("OAuth client");
    await recordAudit(tx, { orgId, actor, action: "oauth_client.deleted", targetType: "oauth_client", targetId: id });
  });
}
