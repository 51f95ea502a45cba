import { apiRoute, json, paginate } from "@/lib/api";
import { listDeliveries, toDelivery } from "@/lib/webhooks/deliveries";
import { listDeliveriesOperation } from "@/lib/webhooks/operations";

// GET /api/v1/webhooks/{webhookId}/deliveries - the delivery log with attempts (beyond 1.0.2)
export const GET = apiRoute(listDeliveriesOperation, async ({ viewer, params, query, url }) => {
  const rows = await listDeliveries({ viewer, webhookId: params.webhookId, status: query.status, cursor: query.cursor, take: query.limit + 1 });
  const { items, headers } = paginate(rows, query.limit, url);
  return json(items.map(toDelivery), 200, headers);
});
