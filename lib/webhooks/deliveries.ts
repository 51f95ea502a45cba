import { requireOrg } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { afterCursor, MAX_PAGE_SIZE, PAGE_ORDER, splitPage, type Cursor } from "@/lib/pagination";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { DeliveryStatus, Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import type { WebhookDeliveryBody } from "./schemas";

const withAttempts = { attempts: { orderBy: { number: "asc" } } } satisfies Prisma.WebhookDeliveryInclude;
export type DeliveryWithAttempts = Prisma.WebhookDeliveryGetPayload<{ include: typeof withAttempts }>;

export interface ListDeliveriesOptions {
  viewer: Viewer;
  webhookId: string;
  status?: DeliveryStatus;
  cursor?: Cursor;
  limit?: number;
  /** The web page shows the latest page first; the API lists in creation order (D5), by cursor. */
  newestFirst?: boolean;
}

/** A page of a webhook's delivery log (30 days), each delivery with its attempts, and the next page's cursor. */
export async function listDeliveries({ viewer, webhookId, status, cursor, limit = MAX_PAGE_SIZE, newestFirst = false }: ListDeliveriesOptions) {
  await getWebhook({ viewer, webhookId });
  if (newestFirst && cursor) throw new Error("The newest-first log has no cursor");
  const rows = await db.webhookDelivery.findMany({
    where: { webhookId, ...(status ? { status } : {}), ...afterCursor(cursor) },
    orderBy: newestFirst ? [{ createdAt: "desc" }, { id: "desc" }] : PAGE_ORDER,
    include: withAttempts,
    take: limit + 1,
  });
  return splitPage(rows, limit);
}

/** One delivery of the organization's webhook, with its attempts; null when there is none. */
export async function findDelivery({ viewer, webhookId, deliveryId }: { viewer: Viewer; webhookId: string; deliveryId: string }) {
  requireOrg(viewer, "manageWebhooks");
  if (!isUuid(webhookId) || !isUuid(deliveryId)) return null;
  return db.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId, webhook: { orgId: viewer.orgId } }, include: withAttempts });
}

/** One webhook of the viewer's organization (webhooks are the admins'); 404 when there is none. */
export async function getWebhook({ viewer, webhookId }: { viewer: Viewer; webhookId: string }) {
  requireOrg(viewer, "manageWebhooks");
  const webhook = isUuid(webhookId) ? await db.webhook.findFirst({ where: { id: webhookId, orgId: viewer.orgId } }) : null;
  if (!webhook) throw notFound("Webhook");
  return webhook;
}

export function toDelivery(row: DeliveryWithAttempts): WebhookDeliveryBody {
  return {
    delivery_id: row.id,
    webhook_id: row.webhookId,
    event: row.eventType,
    // A test send is its own event (D21): its event_id is the delivery id.
    event_id: row.eventId ?? row.id,
    status: row.status,
    attempt_count: row.attemptCount,
    created_at: row.createdAt,
    completed_at: row.completedAt,
    attempts: row.attempts.map((a) => ({
      number: a.number,
      started_at: a.startedAt,
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      success: a.success,
      error: a.error,
      response_body: a.responseBody,
    })),
  };
}
