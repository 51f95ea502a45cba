import { apiRoute, json } from "@/lib/api";
import { toDelivery } from "@/lib/webhooks/deliveries";
import { redeliverOperation } from "@/lib/api/operations/webhooks";
import { redeliverWebhookDelivery } from "@/lib/webhooks/redeliver";

// POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver - a new attempt series (beyond 1.0.2)
export const POST = apiRoute(redeliverOperation, async ({ viewer, params }) => json(toDelivery(await redeliverWebhookDelivery({ viewer, ...params })), 202));
