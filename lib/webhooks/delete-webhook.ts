import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/**
 * Deletes a webhook with its secret and delivery log (cascade). Runs still waiting between
 * attempts find nothing to deliver and stop before their next attempt (D20).
 */
export async function deleteWebhook({ viewer, webhookId }: { viewer: Viewer; webhookId: string }) {
  requireOrg(viewer, "manageWebhooks");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  if (!isUuid(webhookId)) throw notFound("Webhook");
  await db.$transaction(async (tx) => {
    const row = await tx.webhook.findFirst({ where: { id: webhookId, orgId }, select: { url: true } });
    const { count } = await tx.webhook.deleteMany({ where: { id: webhookId, orgId } });
    if (!row || count === 0) throw notFound("Webhook");
    await recordAudit(tx, { orgId, actor, action: "webhook.deleted", targetType: "webhook", targetId: webhookId, metadata: { url: row.url } });
  });
  return { success: true, webhook_id: webhookId };
}
