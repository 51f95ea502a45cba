import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { OutboundPolicy } from "@/lib/outbound";
import { attemptDelivery } from "./attempt-delivery";
import { checkWebhookUrl } from "./check-url";
import { TEST_EVENT } from "./payload";

export interface TestWebhookOptions {
  viewer: Viewer;
  webhookId: string;
  /** D20: 10 s. */
  timeoutMs?: number;
  /** Tests only. */
  outboundPolicy?: OutboundPolicy;
}

/**
 * Sends a signed `webhook.test` now, once, and reports what happened (spec section 4). It is a
 * delivery of its own (logged with its attempt, redeliverable) that does not count in the
 * webhook's counters. A URL refused by the outbound rules is a 400 before anything is sent.
 */
export async function testWebhook({ viewer, webhookId, timeoutMs, outboundPolicy }: TestWebhookOptions) {
  requireOrg(viewer, "manageWebhooks");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  if (!isUuid(webhookId)) throw notFound("Webhook");
  const webhook = await db.webhook.findFirst({ where: { id: webhookId, orgId }, select: { id: true, url: true } });
  if (!webhook) throw notFound("Webhook");
  await checkWebhookUrl(webhook.url, outboundPolicy);

  const delivery = await db.$transaction(async (tx) => {
    const created = await tx.webhookDelivery.create({ data: { webhookId, eventType: TEST_EVENT }, select: { id: true } });
    await recordAudit(tx, { orgId, actor, action: "webhook.test_sent", targetType: "webhook", targetId: webhookId, metadata: { delivery_id: created.id } });
    return created;
  });
  const result = await attemptDelivery({ deliveryId: delivery.id, number: 1, last: true, ignoreDisabled: true, timeoutMs, outboundPolicy });
  if (result.outcome === "stopped") throw notFound("Webhook");
  return {
    success: result.outcome === "succeeded",
    status_code: result.statusCode,
    delivery_id: delivery.id,
    error: result.error,
  };
}
