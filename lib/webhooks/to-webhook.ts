import { decrypt } from "@/lib/crypto";
import { subscribableEventTypes, type SubscribableEventType } from "@/lib/events/types";
import type { Webhook } from "@/lib/generated/prisma/client";
import type { WebhookBody } from "./schemas";

/** The subscribed events in the spec's order, each once. */
export function normalizeEvents(events: readonly string[]): SubscribableEventType[] {
  return subscribableEventTypes.filter((t) => events.includes(t));
}

/** The API's Webhook record; the secret is decrypted (create and list show it, spec section 2). */
export function toWebhook(row: Webhook): WebhookBody {
  return {
    webhook_id: row.id,
    org_id: row.orgId,
    url: row.url,
    events: normalizeEvents(row.events),
    secret: decrypt(row.secretEncrypted),
    enabled: row.enabled,
    success_count: row.successCount,
    failure_count: row.failureCount,
    created_at: row.createdAt,
  };
}
