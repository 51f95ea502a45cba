import { apiRoute, json } from "@/lib/api";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { deleteWebhookOperation, updateWebhookOperation } from "@/lib/api/operations/webhooks";
import { updateWebhook } from "@/lib/webhooks/update-webhook";

// PATCH /api/v1/webhooks/{webhookId} - change url, events or enabled
export const PATCH = apiRoute(updateWebhookOperation, async ({ viewer, params, body }) =>
  json(await updateWebhook({ viewer, webhookId: params.webhookId, ...body })),
);

// DELETE /api/v1/webhooks/{webhookId} - delete it; deliveries stop, the secret is gone
export const DELETE = apiRoute(deleteWebhookOperation, async ({ viewer, params }) => json(await deleteWebhook({ viewer, webhookId: params.webhookId })));
