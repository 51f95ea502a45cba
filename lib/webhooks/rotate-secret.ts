import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { encrypt } from "@/lib/crypto";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { newWebhookSecret, SECRET_GRACE_MS } from "./secret";

/**
 * Gives a webhook a new secret and keeps the one it replaces for the grace period (24 hours):
 * until then every delivery carries both signatures (docs/api.md), after that only the new one.
 * Rotating again during a grace period ends it at once: only the secret just replaced stays
 * valid beside the new one. The row is locked, so two rotations at once replace one after the
 * other. Returns the new secret and when the previous one stops signing.
 */
export async function rotateWebhookSecret({ viewer, webhookId }: { viewer: Viewer; webhookId: string }) {
  requireOrg(viewer, "manageWebhooks");
  const { orgId } = viewer;
  if (!isUuid(webhookId)) throw notFound("Webhook");
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = new Date(Date.now() + SECRET_GRACE_MS);
  await db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ secretEncrypted: string }[]>`
      SELECT "secretEncrypted" FROM "Webhook" WHERE "id" = ${webhookId}::uuid AND "orgId" = ${orgId}::uuid FOR UPDATE`;
    if (!row) throw notFound("Webhook");
    await tx.webhook.update({
      where: { id: webhookId },
      data: { secretEncrypted: encrypt(secret), previousSecretEncrypted: row.secretEncrypted, previousSecretExpiresAt },
    });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(viewer),
      action: "webhook.secret_rotated",
      targetType: "webhook",
      targetId: webhookId,
      metadata: { previous_secret_expires_at: previousSecretExpiresAt.toISOString() },
    });
  });
  return { success: true, webhook_id: webhookId, secret, previous_secret_expires_at: previousSecretExpiresAt };
}
