import { apiRoute, json, linkHeader } from "@/lib/api";
import { listDeliveries, toDelivery } from "@/lib/webhooks/deliveries";
import { listDeliveriesOperation } from "@/lib/api/operations/webhooks";

// GET /api/v1/webhooks/{webhookId}/deliveries - the delivery log with attempts (beyond 1.0.2)
export const GET = apiRoute(listDeliveriesOperation, async ({ viewer, params, query, url }) => {
  const { items, next } = await listDeliveries({ viewer, webhookId: params.webhookId, status: query.status, cursor: query.cursor, limit: query.limit });
  return json(items.map(toDelivery), 200, linkHeader(url, next));
});
