import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { OutboundPolicy } from "@/lib/outbound";
import { checkWebhookUrl } from "./check-url";
import { parseWebhookInput } from "./parse-input";
import { updateWebhookBody } from "./schemas";
import { normalizeEvents } from "./to-webhook";

export interface UpdateWebhookOptions {
  viewer: Viewer;
  webhookId: string;
  url?: string;
  events?: readonly string[];
  enabled?: boolean;
  /** Tests only: the outbound policy the URL is checked against. */
  outboundPolicy?: OutboundPolicy;
}

/**
 * Changes what was sent (at least one of url, events, enabled). Disabling stops the webhook's
 * pending retries before their next attempt (D20); the configuration and secret stay.
 */
export async function updateWebhook({ viewer, webhookId, outboundPolicy, ...input }: UpdateWebhookOptions) {
  requireOrg(viewer, "manageWebhooks");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  if (!isUuid(webhookId)) throw notFound("Webhook");
  const change = parseWebhookInput(updateWebhookBody, input);
  if (change.url !== undefined) await checkWebhookUrl(change.url, outboundPolicy);
  const data = {
    ...(change.url !== undefined ? { url: change.url } : {}),
    ...(change.events !== undefined ? { events: normalizeEvents(change.events) } : {}),
    ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
  };
  await db.$transaction(async (tx) => {
    const { count } = await tx.webhook.updateMany({ where: { id: webhookId, orgId }, data });
    if (count === 0) throw notFound("Webhook");
    await recordAudit(tx, { orgId, actor, action: "webhook.updated", targetType: "webhook", targetId: webhookId, metadata: data });
  });
  return { success: true, webhook_id: webhookId };
}
